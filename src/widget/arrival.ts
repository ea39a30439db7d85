// When the element's checkout arrives. A page rendered by a server (Next.js, Nuxt) defines
// the element before its framework has hydrated the page: the element upgrades with no
// `order` property and no listeners yet, and gets them a moment later, all in one task
// (`payment-widget/react` sets them in one layout effect). So with neither `checkout-id`
// nor `order` it waits, rather than failing at once with "missing its checkout": the
// checkout is reported missing only once the page has loaded and a framework has had
// time to hydrate it, and either set later still loads at once.

/**
 * How long after the page's `load` event an element with neither `checkout-id` nor
 * `order` says so. Hydration starts as the page's scripts run, which `load` waits for;
 * a large page on a slow phone can take a few seconds more to finish it.
 */
export const MISSING_AFTER_MS = 5000;

/**
 * Resolves once the page has loaded and `MISSING_AFTER_MS` have passed since, or at once
 * when `signal` aborts (a later load took over: the caller checks the signal; the timer
 * left running resolves nothing more).
 */
export function pageSettled(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve());
    const wait = () => setTimeout(resolve, MISSING_AFTER_MS);
    if (document.readyState === 'complete') wait();
    else addEventListener('load', wait, { once: true });
  });
}
