/**
 * The demo's HTML: templates in `demo/` with `{{value}}` (escaped) and
 * `{{{html}}}` (already-built markup) slots. Nothing here is a framework; a
 * shop would use its own templating.
 */
import { readFileSync } from 'node:fs';

const DEMO_DIR = new URL('../demo/', import.meta.url);

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Read per render, not cached: editing a demo page shows on the next reload.
function template(name: string): string {
  return readFileSync(new URL(name, DEMO_DIR), 'utf8');
}

export function render(name: string, slots: Record<string, string>): string {
  return template(name)
    .replace(/\{\{\{(\w+)\}\}\}/g, (_, key: string) => slots[key] ?? '')
    .replace(/\{\{(\w+)\}\}/g, (_, key: string) => escapeHtml(slots[key] ?? ''));
}

/** `name="value"` pairs (and bare names for `true`), every value escaped. */
export function attributes(attrs: Record<string, string | boolean | undefined>): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? name : `${name}="${escapeHtml(String(value))}"`))
    .join(' ');
}

export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
}

/**
 * The order block of a shop page. A paid basket shows its order's confirmation instead of a
 * new payment; any other page carries the same "Buy again" form hidden, which the page's
 * script shows once the widget says the payment went through. "Buy again" starts a new
 * basket and comes back to `page`, the page the shopper is on.
 */
export function orderBlock(
  paid: { checkout_reference?: string | null | undefined } | undefined,
  page: URL,
): string {
  const again = `<form class="buy-again" method="post" action="/basket"${paid ? '' : ' hidden'}>
    <input type="hidden" name="return" value="${escapeHtml(page.pathname + page.search)}" />
    <button type="submit">Buy again</button>
  </form>`;
  if (paid === undefined) return again;
  return `<div class="order-confirmed" role="status">
  <h2>Order confirmed</h2>
  <p>Order <strong>${escapeHtml(paid.checkout_reference ?? '')}</strong> is paid. Thank you!</p>
  ${again}
</div>`;
}

/** The strict policy of the `csp.html` page: the widget needs nothing beyond it. */
export function strictCsp(providerOrigin: string): string {
  return [
    "default-src 'self'",
    // The 3DS challenge is a form POSTed into an iframe, or the whole page, at the provider.
    `frame-src ${providerOrigin}`,
    `form-action 'self' ${providerOrigin}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    // Trusted Types: no string reaches an HTML or script sink. Lit renders through
    // its own policy, named 'lit-html'; the widget needs no other.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');
}

/** The three ways the shop page loads the widget. */
export type PageVariant = 'script' | 'module' | 'csp';

const SCRIPT_TAG = '<script src="/assets/payment-widget.iife.js"></script>';
const EVENTS = '<script src="/demo/events.js"></script>';

export function variantParts(variant: PageVariant): {
  label: string;
  head: string;
  scripts: string;
} {
  switch (variant) {
    case 'module':
      return {
        label: 'ES module build',
        // What a bundler does for a shop that writes `import 'payment-widget'`.
        head: '<script type="importmap">{"imports":{"payment-widget":"/assets/payment-widget.js"}}</script>',
        scripts: `<script type="module" src="/demo/module.js"></script>${EVENTS}`,
      };
    case 'csp':
      return { label: 'Strict Content-Security-Policy', head: '', scripts: SCRIPT_TAG + EVENTS };
    default:
      return { label: 'Script-tag build', head: '', scripts: SCRIPT_TAG + EVENTS };
  }
}
