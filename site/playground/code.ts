// The code that makes a shop page of the site, as the merchant would write it: the page's
// markup (the widget's script, any theme, the element with the attributes it has right now)
// and the payment handler's options for the terms this page sells at. Read from the page
// itself, so it follows every change the options panel makes.

/** The widget's palette for a dark page: the values its own dark scheme uses (src/widget/styles.ts). */
export const DARK_THEME: Readonly<Record<string, string>> = {
  '--payment-widget-background': '#15181c',
  '--payment-widget-color': '#e6e8eb',
  '--payment-widget-muted-color': '#b4bbc3',
  '--payment-widget-field-background': '#1f2329',
  '--payment-widget-border-color': '#7d858f',
  '--payment-widget-accent-color': '#a8c7fa',
  '--payment-widget-accent-text-color': '#062e6f',
  '--payment-widget-error-color': '#ffb4ab',
  '--payment-widget-success-color': '#8fd6a0',
  '--payment-widget-focus-color': '#a8c7fa',
};

/** `value` as an HTML attribute value, in the quotes that need the least escaping. */
function quoted(value: string): string {
  const text = value.replace(/&/g, '&amp;');
  return text.includes('"') && !text.includes("'")
    ? `'${text}'`
    : `"${text.replace(/"/g, '&quot;')}"`;
}

/** How the page loads the widget: the script tag, or the import map and an import. */
function loader(doc: Document): string {
  const map = doc.querySelector('script[type="importmap"]');
  if (map) {
    return `${map.outerHTML}\n<script type="module">\n  import 'payment-widget';\n</script>`;
  }
  const tag = doc.querySelector('script[src$="payment-widget.iife.js"]');
  return `<script src=${quoted(tag?.getAttribute('src') ?? 'payment-widget.iife.js')}></script>`;
}

/** The element's theme, as the rule a stylesheet of the page would hold; '' for none. */
function theme(widget: HTMLElement): string {
  const set = Object.keys(DARK_THEME).filter((name) => widget.style.getPropertyValue(name));
  if (set.length === 0) return '';
  const lines = set.map((name) => `    ${name}: ${widget.style.getPropertyValue(name)};`);
  return `<style>\n  payment-widget {\n${lines.join('\n')}\n  }\n</style>\n`;
}

/** The page's markup for `widget`: what to paste into a page served beside the package. */
export function pageCode(widget: HTMLElement): string {
  const attributes = [...widget.attributes]
    .filter((attribute) => attribute.name !== 'style')
    .map((attribute) => `\n  ${attribute.name}=${quoted(attribute.value)}`)
    .join('');
  return `${loader(widget.ownerDocument)}\n${theme(widget)}<payment-widget${attributes}>\n</payment-widget>`;
}

/** What the page sells: the price its server decides (the demo reads it from the address). */
export interface Terms {
  amount: string;
  currency: string;
  description: string;
  /** The checkout comes back to the shop's result page: 3DS as a full page, bank methods. */
  redirect: boolean;
}

/**
 * The payment handler behind the page, for `terms`: a module a developer can copy into their
 * server as it is (strict TypeScript, every required option), as the README's backend writes it.
 */
export function serverCode(terms: Terms): string {
  const amount = Number(terms.amount);
  return `import { createPaymentHandler } from 'payment-widget/server';

// The sandbox prints all three: npx payment-sandbox
function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(\`Set \${name} (the sandbox prints all three)\`);
  return value;
}

const origin = 'http://127.0.0.1:3000'; // your shop's origin

// The shopper's basket: a random id in a cookie your shop sets.
const basketOf = (request: Request) =>
  /(?:^|;\\s*)basket=([\\w-]{36})/.exec(request.headers.get('cookie') ?? '')?.[1];

export const payments = createPaymentHandler({
  provider: {
    baseUrl: setting('PROVIDER_BASE_URL'),
    apiKey: setting('PROVIDER_API_KEY'), // stays on the server
    merchantCode: setting('MERCHANT_CODE'),
  },
  publicUrl: \`\${origin}/payments\`,
  allowedOrigins: [origin],
  resultPages: { success: '/result.html', failure: '/result.html' },
  // The page names its order; the price is decided here, never by the page.
  resolveCheckout(_order, request) {
    const price = {
      amount: ${Number.isFinite(amount) ? amount : 10},
      currency: ${JSON.stringify(terms.currency)},
      description: ${JSON.stringify(terms.description)},
      redirect: ${terms.redirect}, // ${terms.redirect ? '3DS as a full page; bank methods offered' : '3DS inside the widget; cards only'}
    };
    // One checkout per basket: a reload or a second tab finds the same one.
    const basket = basketOf(request);
    return basket === undefined ? price : { ...price, reference: \`order-\${basket}\` };
  },
});

// Node (node:http, Express): toNodeListener(payments) for the paths under /payments;
// elsewhere, payments(request) answers with a Response.`;
}

/** The terms of the page at `url` (the demo's knobs: amount, currency, redirect). */
export function termsOf(url: URL, description: string): Terms {
  const query = url.searchParams;
  return {
    amount: query.get('amount') || '10.00',
    currency: query.get('currency') || 'EUR',
    description,
    redirect: query.get('redirect') !== '0',
  };
}
