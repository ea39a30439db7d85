// What the widget tells the page's developer in the browser console, once per problem: an
// error for what stops a payment (the handler's 404 or 403), a warning for what it ignores
// (an unknown payment method's name, an `order` attribute that is broken JSON, an unknown
// `challenge`). A part: only a page with a mistake loads its words (the checkout
// pay part's diagnose(): ../checkout/settings.ts, report.ts).

/**
 * `endpoint`: the handler (or whatever answers at `endpoint`) said 404 or 403 (the call,
 * `POST https://...`, its status, the message, and '1' when the answer was the handler's); `methods`: an unknown
 * name in `payment-methods`; `order`: an `order` attribute that looks like JSON and does
 * not parse; `challenge`: an unknown `challenge`.
 */
export type Problem = 'endpoint' | 'methods' | 'order' | 'challenge';

const told = new Set<string>();

const TEXTS: Record<Problem, (values: string[]) => string> = {
  endpoint: ([call, status, message, own]) =>
    `${call} answered ${status}: ${message}${
      own
        ? ''
        : status === '404'
          ? '. No payment handler answers there: set the widget\'s `endpoint` to where yours is mounted (its basePath; default "/payments")'
          : ''
    }`,
  methods: ([attribute, unknown]) =>
    `payment-methods="${attribute}": ${unknown} is not a payment method, and is ignored (the methods: card ideal bancontact blik boleto)`,
  order: ([text, why]) =>
    `the order attribute ${text} looks like JSON but does not parse (${why}), so it is sent as text; write it as JSON ('{"sku":"mug"}') or set the order property`,
  challenge: ([value]) =>
    `challenge="${value}" is not auto, iframe or redirect, and is ignored (auto: an iframe, or the full page when the checkout has a redirect_url)`,
};

/** Says `problem` in the console, unless this page was told it already. */
export function tell(problem: Problem, values: string[]): void {
  const text = `payment-widget: ${TEXTS[problem](values)}`;
  if (told.has(text)) return;
  told.add(text);
  if (problem === 'endpoint') console.error(text);
  else console.warn(text);
}
