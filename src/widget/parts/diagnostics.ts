// What the widget tells the page's developer in the browser console, once per problem: an
// error for what stops a payment (the handler's own 404 or 403, and any answer at `endpoint`
// that is not the handler's: a 404 or 405 from something else, a server error, a page that
// is not a checkout, no answer), a warning for what it ignores (an unknown payment method's
// name, a method the checkout does not offer, an `order` that is broken JSON, an unknown
// `challenge`), for an attribute written
// "false" (on all the same) and for a widget still without its checkout once the page has
// settled. A part: only a page with a mistake loads its words (the pay part's diagnose():
// ../checkout/settings.ts, report.ts). So does a page where a file of the widget did not
// load: whether it was refused for bytes that are not the ones built is judged here
// (./tampering.ts).

export { judge } from './tampering.ts';

/**
 * `endpoint`: the handler said 404 or 403 (the call, `POST https://...`, its status and its
 * message); `foreign`: what answered at `endpoint` is not the handler (the call, its status,
 * 0 for no answer, what came, and '1' when the call timed out);
 * `methods`: an unknown name in `payment-methods` (the attribute, the unknown names and the
 * widget's methods); `unoffered`: a method named in `payment-methods` that the checkout does
 * not offer (the attribute, those methods, and '1' when one is a bank's and the checkout may
 * have no redirect_url); `order`: an `order` that looks like JSON
 * and does not parse; `challenge`: an unknown `challenge`; `false`: an attribute written
 * "false", which is on all the same (its name); `missing`: neither `order` nor
 * `checkout-id` once the page has settled ('[object Object]' when a server render wrote an
 * object as the attribute).
 */
export type Problem =
  | 'endpoint'
  | 'foreign'
  | 'methods'
  | 'unoffered'
  | 'order'
  | 'challenge'
  | 'false'
  | 'missing';

const told = new Set<string>();

const MOUNT =
  'set the widget\'s `endpoint` to where the payment handler is mounted (its basePath; default "/payments")';

// A 5xx that is not the handler's is a server that failed where the handler is mounted (a
// route whose own code threw before calling it: a setting missing, an import that failed),
// or a proxy that could not reach it: `endpoint` is right, and moving it would not help.
const FAILED =
  "the server there failed before the handler answered, or a proxy in front of it could not reach it: the server's log says why (a route that threw before calling the handler: a setting missing)";

// Not found, or not allowed, is the router of whatever is mounted there: `endpoint` is wrong.
// Any other refusal (a 429, a 403) is a check in front of the handler, a rate limiter, a
// CSRF check or a login, with `endpoint` right; and one that redirects the call (AdonisJS's
// CSRF check answers a POST with a redirect back) brings a page in the handler's place.
const FRONT = 'a rate limiter, a CSRF check or a login in front of the handler';

function advice(status = ''): string {
  const code = Number(status);
  if (code >= 500) return FAILED;
  if (code < 400) return `${MOUNT}; or ${FRONT} redirected the call`;
  return code === 404 || code === 405 ? MOUNT : `${FRONT} refused the call: let its routes through`;
}

const TEXTS: Record<Problem, (values: string[]) => string> = {
  endpoint: ([call, status, message]) => `${call} answered ${status}: ${message}`,
  foreign: ([call, status, message = '', timedOut]) =>
    status === '0'
      ? `${call} got no answer${timedOut ? ' in time' : ''}: is the payment handler running there, and reachable from this page? ${MOUNT}`
      : `${call} answered ${status}: ${message.replace(/\.$/, '')}. That is not the payment handler's answer: ${advice(status)}`,
  methods: ([attribute, unknown, methods]) =>
    `payment-methods="${attribute}": ${unknown} is not a payment method, and is ignored (the methods: ${methods})`,
  unoffered: ([attribute, left, bank]) =>
    `payment-methods="${attribute}": this checkout does not offer ${left} (${bank ? "a bank's method needs the redirect_url that resolveCheckout's redirect: false leaves out; " : ''}GET /payment-methods?currency= lists what a currency offers)`,
  order: ([text, why]) =>
    `the order attribute ${text} looks like JSON but does not parse (${why}), so it is sent as text; write it as JSON ('{"sku":"mug"}') or set the order property`,
  challenge: ([value]) =>
    `challenge="${value}" is not auto, iframe or redirect, and is ignored (auto: an iframe, or the full page when the checkout has a redirect_url)`,
  false: ([name]) =>
    `${name}="false" sets ${name}: an attribute counts by being there, whatever its text (as in HTML); leave it out to leave ${name} off (Astro writes ${name}={false} on a custom element as "false": write ${name}={value || undefined})`,
  missing: ([rendered]) =>
    rendered
      ? `order="${rendered}": an object was written as the attribute (a server render, or a framework before the element was defined: a lazy import), and no script set the order property since, so there is no checkout to pay: give the attribute JSON text (order={JSON.stringify(order)}), or set the property once the page runs (payment-widget/react's PaymentWidget does)`
      : 'no checkout-id and no order, seconds after the page loaded, so there is no checkout to pay: give the element checkout-id (a checkout your server made) or order (what your resolveCheckout prices), as an attribute or a property',
};

/** Says `problem` in the console, unless this page was told it already. */
export function tell(problem: Problem, values: string[]): void {
  const text = `payment-widget: ${TEXTS[problem](values)}`;
  if (told.has(text)) return;
  told.add(text);
  if (problem === 'endpoint' || problem === 'foreign') console.error(text);
  else console.warn(text);
}
