// What the challenge and bank pages answer for a step that is no longer open: the checkout
// settled, a newer attempt replaced the step, the checkout was deactivated, or the sandbox no
// longer knows it. A shopper gets there by approving late in a frame the widget left open, by
// reloading the bank's page, or from a link in an old tab, and reads a page that says so, with
// a way back to the shop; raw JSON would leave them stranded. API clients that ask for JSON
// keep the provider's error.

import { parseAccept } from 'hono/utils/accept';
import type { CheckoutRecord, Frozen } from '../state/records.ts';
import { escapeHtml, page, tellParentEnded } from './html.ts';

/**
 * Whether the client would rather read HTML than JSON: a browser's navigation or form post
 * (`text/html`, ...), not an API client (`application/json`, or only a wildcard, as fetch
 * and curl send by default, which keep the provider's error as they always had it).
 */
export function prefersHtml(request: Request): boolean {
  const header = request.headers.get('accept');
  if (header === null) return false;
  let html = 0;
  let json = 0;
  for (const { type, q } of parseAccept(header)) {
    const lower = type.toLowerCase();
    if (lower === 'text/html' || lower === 'text/*') html = Math.max(html, q);
    if (lower === 'application/json' || lower === 'application/*') json = Math.max(json, q);
  }
  return html > json;
}

/** Why the step is closed, in the shopper's words, by what became of its checkout. */
function reason(checkout: Frozen<CheckoutRecord> | undefined): string {
  switch (checkout?.status) {
    case undefined:
      return 'The sandbox does not know this payment (it may have been reset).';
    case 'PAID':
      return 'This payment has already been completed.';
    case 'FAILED':
      return 'This payment did not go through.';
    case 'EXPIRED':
      return 'This payment is no longer valid.';
    default:
      return 'A newer attempt to pay replaced this one.';
  }
}

/** Where "Back to the shop" goes: the checkout's redirect_url, as the provider returns there. */
function backTo(checkout: Frozen<CheckoutRecord> | undefined): string | undefined {
  if (checkout?.redirect_url === undefined) return undefined;
  const target = new URL(checkout.redirect_url);
  target.searchParams.set('checkout_id', checkout.id);
  return target.href;
}

/**
 * The page for a closed step, with the status its route gives it. A challenge that
 * ran in the widget's frame also tells the widget (as the end page does) to read its checkout
 * again: only a hint, which the widget confirms through its backend.
 */
export function closedStepPage(
  step: 'challenge' | 'bank',
  checkout: Frozen<CheckoutRecord> | undefined,
  status: number,
): Response {
  const back = backTo(checkout);
  const title =
    step === 'challenge'
      ? 'This authentication is no longer open'
      : 'This bank payment is no longer open';
  // Where no link leads back (the challenge ran in the widget's frame), the widget is told.
  const script =
    step === 'challenge' && checkout !== undefined && back === undefined
      ? tellParentEnded(checkout.id, checkout.status)
      : undefined;
  return page({
    title,
    status,
    body: `<h1>${title}</h1>
<p>${escapeHtml(reason(checkout))} Nothing is charged on this page.</p>
${
  back === undefined
    ? '<p>You can close this page and return to the shop.</p>'
    : `<p><a href="${escapeHtml(back)}">Back to the shop</a></p>`
}`,
    ...(script && { script }),
  });
}
