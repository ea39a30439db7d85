/**
 * One real sandbox and one example shop per Playwright worker, on free ports,
 * started by the tests themselves. Each test's browser context is a new shopper with a
 * basket of their own, so tests share them without interfering.
 */
import {
  type BrowserContext,
  test as base,
  expect,
  type Frame,
  type Locator,
  type Page,
} from '@playwright/test';
import { basketCheckout, EXPIRY, type Shop, startShop } from './shop.ts';

export {
  basketCheckouts,
  CARDS,
  chargesOf,
  EXPIRY,
  hookRunsOf,
  providerStatus,
  SHAPES,
  type Shape,
  type Shop,
  shaped,
  startShop,
  webhooksAnswered,
} from './shop.ts';

/**
 * The console of every page a test opens (its own, the pages of any context it makes, the
 * provider's pages it is sent to), checked once the test is over: an error or a warning
 * the test did not `allow()`, a browser's own included ("Failed to load resource", a
 * sandbox flag, a CSP violation), or an uncaught error fails the test. A correct page says
 * nothing; a test that makes a mistake on purpose allows what it expects to be told.
 */
export interface Quiet {
  /** Allows the errors and warnings `pattern` matches (`error: text (url)`), in this test. */
  allow(pattern: RegExp): void;
  /**
   * Allows the browser's own line for a request of the page's that the test makes fail on
   * purpose: answered `status` (409), or lost (`net::ERR_CONNECTION_RESET`). A browser
   * reports any failed request of a page, whatever the page then does with the answer.
   */
  failed(status: number | `net::${string}`): void;
}

/** What the console of `page` says that would count: errors, warnings, uncaught errors. */
function listen(page: Page, said: string[]): void {
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') {
      said.push(`${type}: ${message.text()} (${message.location().url || page.url()})`);
    }
  });
  page.on('pageerror', (error) => said.push(`uncaught: ${error.message} (${page.url()})`));
}

export const test = base.extend<{ widget: Locator; quiet: Quiet }, { shop: Shop }>({
  quiet: [
    async ({ context, browser }, use) => {
      const said: string[] = [];
      const allowed: RegExp[] = [];
      const watch = (c: BrowserContext) => {
        for (const page of c.pages()) listen(page, said);
        c.on('page', (page) => listen(page, said));
      };
      watch(context);
      // The contexts a test makes itself: a phone, a second shopper.
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const made = await newContext.apply(browser, args);
        watch(made);
        return made;
      };
      await use({
        allow: (pattern) => allowed.push(pattern),
        failed: (status) =>
          allowed.push(
            new RegExp(
              `^error: Failed to load resource: ${typeof status === 'number' ? `the server responded with a status of ${status}` : status} `,
            ),
          ),
      });
      browser.newContext = newContext;
      const unexpected = said.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      expect(unexpected, 'errors and warnings in the console that the test did not expect').toEqual(
        [],
      );
    },
    { auto: true },
  ],
  shop: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const shop = await startShop();
      await use(shop);
      await shop.close();
    },
    { scope: 'worker' },
  ],
  widget: async ({ page }, use) => {
    await use(page.locator('payment-widget'));
  },
});

export { expect };

/**
 * Collects, from the next page load on, what a merchant trying the page would call broken:
 * answers of 400 and above (a missing favicon or locale file included), console errors and
 * warnings, uncaught errors, and CSP violations (reported to the console as errors).
 */
export async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/**
 * Counts, on `page` from its next load on, the widget's payment-ready events (the form is on
 * screen and what typing and paying need has arrived) in `window.paymentReadyCount`.
 */
async function countReady(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counted = window as unknown as { paymentReadyCount: number };
    counted.paymentReadyCount = 0;
    document.addEventListener('payment-ready', () => {
      counted.paymentReadyCount += 1;
    });
  });
}

/**
 * Opens a shop page and waits until the widget shows its form, ready to be used (after
 * payment-ready: it formats what is typed from the first keystroke).
 */
export async function openShop(page: Page, shop: Shop, path = '/'): Promise<string> {
  await countReady(page);
  await page.goto(new URL(path, shop.url).href);
  await expect(page.getByRole('button', { name: /^(Pay|Donate) / })).toBeEnabled();
  await page.waitForFunction(
    () => (window as unknown as { paymentReadyCount?: number }).paymentReadyCount,
  );
  const id = await page.locator('payment-widget').getAttribute('checkout-id');
  if (id) return id;
  // A page that names its checkout by `order`: the basket's, which the widget was answered.
  const cookies = await page.context().cookies(shop.url);
  return basketCheckout(shop, cookies.find((cookie) => cookie.name === 'shop_basket')?.value);
}

/**
 * After a payment, the shopper starts a new basket ("Buy again"): the shop keeps a paid
 * basket's order on its pages until then. Back on the page the form was on.
 */
export async function buyAgain(page: Page): Promise<void> {
  const again = page.getByRole('button', { name: 'Buy again' });
  await expect(again).toBeVisible();
  await Promise.all([page.waitForEvent('load'), again.click()]);
}

/** A page, or a frame of one (a shop page framed by another): what the form helpers use. */
type Form = Pick<Page, 'getByLabel' | 'getByRole'>;

export async function fillCard(page: Form, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill(EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}

/** The shopper's details every bank method and boleto asks for. */
export async function fillPerson(page: Form): Promise<void> {
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
}

/** A boleto's payer: the person, a valid CPF and a São Paulo address. */
export async function fillBoleto(page: Page): Promise<void> {
  await fillPerson(page);
  await page.getByLabel('CPF or CNPJ').fill('529.982.247-25');
  await page.getByLabel('Street and number').fill('Avenida Paulista 1000');
  await page.getByLabel('City').fill('São Paulo');
  await page.getByLabel('State').fill('SP');
  await page.getByLabel('Postal code').fill('01310100');
}

export async function pay(page: Form): Promise<void> {
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** The 3DS challenge page inside the widget's iframe. */
export async function challengeFrame(page: Page): Promise<Frame> {
  const iframe = page.locator('payment-widget iframe');
  await expect(iframe).toBeVisible();
  const frame = await (await iframe.elementHandle())?.contentFrame();
  if (!frame) throw new Error('the challenge iframe has no frame');
  await expect(frame.getByRole('button', { name: 'Complete authentication' })).toBeVisible();
  return frame;
}
