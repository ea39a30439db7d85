/**
 * The demo's HTML: templates in `demo/` with `{{value}}` (escaped) and
 * `{{{html}}}` (already-built markup) slots. Nothing here is a framework; a
 * shop would use its own templating. No file is read here (templates.ts reads
 * them on Node), so the static site's Service Worker renders the same pages.
 *
 * Every URL in the pages is relative to the page (`payments`, `assets/...`), and
 * every page sits at the shop's root: the shop works the same under a path prefix.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The pages the shop renders, by their file in `demo/`. */
export type TemplateName =
  | 'shop.html'
  | 'result.html'
  | 'in-person.html'
  | 'in-person-simulator.html';

/** Renders a template by name with its slots filled (templates.ts on Node). */
export type Render = (name: TemplateName, slots: Record<string, string>) => string;

/** `template` with its slots filled: `{{value}}` escaped, `{{{html}}}` as it is. */
export function fill(template: string, slots: Record<string, string>): string {
  return template
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
 * The order block of a shop page. A basket the page knows to be paid shows its order's
 * confirmation instead of a new payment; any other page carries the same block and "Buy
 * again" form hidden, which the page's script (demo/events.js) shows once the widget says the
 * payment went through (the confirmation when the widget found the basket paid already, as
 * a page that names its checkout by `order` learns it). "Buy again" starts a new basket and
 * comes back to `page`, the page the shopper is on.
 */
export function orderBlock(
  paid: { checkout_reference?: string | null | undefined } | undefined,
  page: URL,
): string {
  const hidden = paid ? '' : ' hidden';
  const again = `<form class="buy-again" method="post" action="basket"${hidden}>
    <input type="hidden" name="return" value="${escapeHtml(page.pathname + page.search)}" />
    <button type="submit">Buy again</button>
  </form>`;
  const confirmed = `<div class="order-confirmed" role="status"${hidden}>
  <h2>Order confirmed</h2>
  <p>Order <strong class="order-reference">${escapeHtml(paid?.checkout_reference ?? '')}</strong> is paid. Thank you!</p>
  ${paid ? again : ''}
</div>`;
  return paid ? confirmed : confirmed + again;
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
    // Trusted Types: no string reaches an HTML or script sink. Lit renders through its own
    // policy, named 'lit-html'; the widget loads its parts' checked scripts through its own,
    // 'payment-widget'.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html payment-widget',
  ].join('; ');
}

/** The three ways the shop page loads the widget. */
export type PageVariant = 'script' | 'module' | 'csp';

const SCRIPT_TAG = '<script src="assets/payment-widget.iife.js"></script>';
const EVENTS = '<script src="demo/events.js"></script>';

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
        head: '<script type="importmap">{"imports":{"payment-widget":"./assets/payment-widget.js"}}</script>',
        scripts: `<script type="module" src="demo/module.js"></script>${EVENTS}`,
      };
    case 'csp':
      return { label: 'Strict Content-Security-Policy', head: '', scripts: SCRIPT_TAG + EVENTS };
    default:
      return { label: 'Script-tag build', head: '', scripts: SCRIPT_TAG + EVENTS };
  }
}
