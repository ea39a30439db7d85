// The few HTML pages a shopper sees in the sandbox: the 3DS challenge, the end page that
// tells the parent window the challenge ended, the APM bank page and the boleto voucher.
// Each page is tiny, self-contained (no external assets) and carries its own CSP with a
// per-response nonce, so it works inside an iframe of a page with a strict CSP. No
// X-Frame-Options/frame-ancestors: the challenge must be frameable by any merchant.

import { CHALLENGE_COMPLETE } from '../../domain/checkout.ts';
import { formatMoney } from '../../shared/money.ts';
import { randomBytes, toBase64 } from '../state/ids.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1a1a1a;background:#fff}
main{max-width:26rem;margin:0 auto}h1{font-size:1.25rem;margin:0 0 .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1rem}dt{font-weight:600}dd{margin:0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button{font:inherit;padding:.6rem 1rem;border-radius:.4rem;border:2px solid #1d4ed8;cursor:pointer}
button.primary{background:#1d4ed8;color:#fff}button.secondary{background:#fff;color:#1d4ed8}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.note{color:#555;font-size:.875rem}code{word-break:break-all}`;

export interface Page {
  title: string;
  /** Trusted HTML: callers escape every interpolated value. */
  body: string;
  /** Inline script run with the page's nonce. */
  script?: string;
  status?: number;
}

export function page({ title, body, script, status = 200 }: Page): Response {
  const nonce = toBase64(randomBytes(16));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      // The empty icon: without one a browser asks for /favicon.ico, which the policy refuses
      // with a line in the console (Firefox's).
      'content-security-policy': `default-src 'none'; img-src data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'`,
    },
  });
}

/**
 * An amount as a shopper reads it on a page: with the currency's symbol and its minor unit
 * (`€10.00`, `HUF 12,500`, `KWD 5.125`), as the widget writes it.
 */
export function displayAmount(amount: number, currency: string): string {
  return formatMoney('en-GB', amount, currency);
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');
}

export interface ChallengeView {
  merchantName: string;
  amount: string;
  last4: string;
  md: string;
  termUrl: string;
}

/**
 * In a frame (the widget's), a button's answer goes through this page's own URL, replaced
 * (`?MD=...&PaRes=Y`), which posts it on as it loads: a form submitted before its page has
 * loaded replaces that page in the shopper's history. A form posted from the loaded page adds
 * an entry instead, which Chromium and WebKit keep once the widget has removed the frame: the
 * shopper's next Back did nothing. A full page keeps the plain POST (Back from the shop's
 * result page finds this page, which then says it is over).
 */
const ANSWER_IN_PLACE = `var f=document.forms[0],a=/PaRes=(.)/.exec(location);if(a)f.requestSubmit(f.querySelector('[value='+a[1]+']'));else if(parent!==self)f.onsubmit=function(e){e.preventDefault();location.replace(location+'&PaRes='+e.submitter.value)}`;

/** The issuer's challenge; the buttons post PaRes (Y/N) and MD to TermUrl like a 3DS ACS. */
export function challengePage(v: ChallengeView): Response {
  return page({
    title: '3-D Secure authentication (sandbox)',
    body: `<h1>Confirm your payment</h1>
<p>Sandbox card issuer: approve or refuse this payment as the cardholder would.</p>
<dl><dt>Merchant</dt><dd>${escapeHtml(v.merchantName)}</dd>
<dt>Amount</dt><dd>${escapeHtml(v.amount)}</dd>
<dt>Card</dt><dd>ending in ${escapeHtml(v.last4)}</dd></dl>
<form method="post" action="${escapeHtml(v.termUrl)}">
${hidden({ MD: v.md })}
<div class="actions">
<button class="primary" type="submit" name="PaRes" value="Y">Complete authentication</button>
<button class="secondary" type="submit" name="PaRes" value="N">Fail authentication</button>
</div>
</form>`,
    script: ANSWER_IN_PLACE,
  });
}

/**
 * Shown at TermUrl when the checkout has no redirect_url: the challenge ran in an iframe
 * and the parent (the widget) waits for this message. The message is only a hint; the
 * widget confirms the outcome through its backend.
 */
export function challengeEndPage(checkoutId: string, status: string): Response {
  return page({
    title: 'Authentication finished',
    body: `<h1>Authentication finished</h1>
<p>You can return to the merchant's page.</p>`,
    script: tellParentEnded(checkoutId, status),
  });
}

/** The script that tells the window framing this page that the challenge ended. */
export function tellParentEnded(checkoutId: string, status: string): string {
  const message = JSON.stringify({
    type: CHALLENGE_COMPLETE,
    checkout_id: checkoutId,
    status,
  }).replace(/</g, '\\u003c');
  return `(function(){var m=${message};if(window.parent&&window.parent!==window){window.parent.postMessage(m,'*');}})();`;
}

export interface BankView {
  /** The bank's method as its page names it (iDEAL, BLIK, ...). */
  bank: string;
  merchantName: string;
  amount: string;
  action: string;
  tx: string;
}

export function bankPage(v: BankView): Response {
  const { bank } = v;
  return page({
    title: `${bank} payment (sandbox)`,
    body: `<h1>${escapeHtml(bank)} sandbox bank</h1>
<p>Approve or decline the payment as the account holder would.</p>
<dl><dt>Merchant</dt><dd>${escapeHtml(v.merchantName)}</dd>
<dt>Amount</dt><dd>${escapeHtml(v.amount)}</dd></dl>
<form method="post" action="${escapeHtml(v.action)}">
${hidden({ tx: v.tx })}
<div class="actions">
<button class="primary" type="submit" name="result" value="approve">Approve payment</button>
<button class="secondary" type="submit" name="result" value="decline">Decline payment</button>
</div>
</form>`,
  });
}

export function bankDonePage(status: string): Response {
  return page({
    title: 'Payment finished',
    body: `<h1>Payment finished</h1><p>Status: ${escapeHtml(status)}. You can close this page.</p>`,
  });
}

export function boletoPage(v: {
  merchantName: string;
  amount: string;
  barcode: string;
  status: string;
}): Response {
  return page({
    title: 'Boleto (sandbox)',
    body: `<h1>Boleto bancário (sandbox)</h1>
<dl><dt>Beneficiary</dt><dd>${escapeHtml(v.merchantName)}</dd>
<dt>Amount</dt><dd>${escapeHtml(v.amount)}</dd>
<dt>Status</dt><dd>${escapeHtml(v.status)}</dd>
<dt>Line</dt><dd><code>${escapeHtml(v.barcode)}</code></dd></dl>
<p class="note">Sandbox voucher: it is paid with <code>POST /sandbox/checkouts/{id}/settle</code>.</p>`,
  });
}
