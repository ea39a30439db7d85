/**
 * The demo's HTML: templates in `demo/` with `{{value}}` (escaped) and
 * `{{{html}}}` (already-built markup) slots. Nothing here is a framework; a
 * shop would use its own templating. No file is read here (templates.ts reads
 * them on Node), so the static site's Service Worker renders the same pages.
 *
 * Every URL in the pages is relative to the page (`payments`, `assets/...`), and
 * every page sits at the shop's root: the shop works the same under a path prefix.
 */
import { formatMoney } from '../src/shared/money.ts';
import type { PageSecurity } from './page-security.ts';

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

/**
 * A price as the widget writes it in English, with the currency's minor unit from the table
 * the handler charges by: Node's Intl wrote IDR 15000.5 as "IDR 15,001" (and some browsers
 * 12500 HUF as "HUF 12,500.00"), where the widget beside it writes "IDR 15,000.50".
 */
export function formatPrice(amount: number, currency: string): string {
  return formatMoney('en-GB', amount, currency);
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

/** The two ways the shop page loads the widget: the script-tag build, or the ES module's. */
export type PageVariant = 'script' | 'module';

/**
 * The page's label and the scripts at the end of its body: the widget's tag (widgetTags(), in
 * `security`) and the demo's event log, which carries the page's nonce like every script of
 * the shop's own.
 */
export function variantParts(
  variant: PageVariant,
  security: Pick<PageSecurity, 'nonce' | 'widget'>,
): { label: string; scripts: string } {
  const events = `<script nonce="${security.nonce}" src="demo/events.js"></script>`;
  return {
    label: variant === 'module' ? 'ES module build' : 'Script-tag build',
    scripts: security.widget + events,
  };
}
