/**
 * Every state the widget shows a shopper, and how a shopper gets there: through the real
 * handler and sandbox (the sandbox's documented cards, amount 11.00, its bank page's buttons,
 * its provider routes), in the order the suite shoots them. A state may start from where the
 * one before it left the page (the failed 3DS from the open challenge); when it finds the page
 * elsewhere (the state before it failed), it gets there from the start.
 */
import { detectNetwork } from '../../src/card/index.ts';
import type { ResolvedCheckout } from '../../src/server/index.ts';
import { type Driver, EXISTS, nameArg, TEXT, waitFor } from '../engines/driver.ts';
import { CARDS, fillCard, fillPerson, PAY, seeText } from '../engines/shopper.ts';
import { type Attributes, SHOPPER, type VisualServer } from './server.ts';

/** What a state works with: the browser (inside the merchant's page) and the servers. */
export interface Scene {
  driver: Driver;
  server: VisualServer;
  /** The checkout of the page last opened. */
  checkoutId: string;
}

export interface State {
  /** The file name of its shots, and the test's. */
  name: string;
  /** Brings the merchant's page to this state. */
  reach(scene: Scene): Promise<void>;
  /** Lets go of what the state held on to for its shots, whether they were taken or not. */
  leave?(scene: Scene): Promise<void>;
  /**
   * Parts of the widget whose content differs on every run (`part` names), painted over in
   * its shots: where they are and how big stays compared.
   */
  masks?: string[];
}

const CARD: ResolvedCheckout = { amount: 10, currency: 'EUR', redirect: false };
const CARD_ONLY: Attributes = { 'payment-methods': 'card' };

/** Whether the merchant's page shows `text` now. */
async function shows(driver: Driver, text: string): Promise<boolean> {
  try {
    return (await driver.run<string>(TEXT)).includes(text);
  } catch {
    // A page between two documents shows nothing yet.
    return false;
  }
}

/** Loads a URL into the frame the driver is in, and waits until its widget has rendered. */
export async function open(driver: Driver, url: string): Promise<void> {
  // The frame's own element: a page in a frame of its origin may navigate it. A page of
  // another origin (the issuer's challenge page) cannot reach it, and leaves by itself.
  await driver.run(
    'if (window.frameElement) window.frameElement.src = arguments[0]; else location.href = arguments[0];',
    url,
  );
  await waitFor(`the page ${url}`, () =>
    driver.run<boolean>(
      `return location.href === arguments[0] && document.readyState === 'complete' &&
        !!document.querySelector('payment-widget')?.shadowRoot?.querySelector('form');`,
      url,
    ),
  );
}

/**
 * Opens a new checkout's page, and waits until its form can be paid: while the checkout
 * loads, the form on screen is an inert placeholder that takes no typing and no clicks.
 */
async function openForm(
  scene: Scene,
  checkout: ResolvedCheckout,
  attributes: Attributes,
): Promise<void> {
  const { url, checkoutId } = await scene.server.page(checkout, attributes);
  scene.checkoutId = checkoutId;
  await open(scene.driver, url);
  await payable(scene.driver);
}

/** Waits until the widget's form can be paid. */
async function payable(driver: Driver): Promise<void> {
  await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
}

/** A card form with nothing typed: the one on screen when there is one, else a new page. */
async function emptyCardForm(scene: Scene): Promise<void> {
  const { driver } = scene;
  const fresh =
    (await driver.run<boolean>(EXISTS, 'field', nameArg('Card number'))) &&
    (await driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  if (!fresh) await openForm(scene, CARD, CARD_ONLY);
  // The public reset(): every field empty, no error shown.
  await driver.run("document.querySelector('payment-widget').reset();");
}

/** Waits for the widget's payment-change event naming `network`. */
async function networkShown(driver: Driver, network: string): Promise<void> {
  await waitFor(`payment-change naming ${network}`, () =>
    driver.run<boolean>(
      `const changes = window.widgetEvents.filter((e) => e.type === 'payment-change');
       return changes.length > 0 && changes[changes.length - 1].network === arguments[0];`,
      network,
    ),
  );
}

/** Numbers each network's rules detect (checked below), Luhn-valid. */
const MARKS: [name: string, network: string, number: string][] = [
  ['visa', 'VISA', '4200000000000091'],
  ['mastercard', 'MASTERCARD', '5555555555554444'],
  ['maestro', 'MAESTRO', '6759649826438453'],
  ['amex', 'AMEX', '378282246310005'],
  ['discover', 'DISCOVER', '6011111111111117'],
  ['diners', 'DINERS', '36227206271667'],
  ['jcb', 'JCB', '3530111333300000'],
  ['elo', 'ELO', '6362970000457013'],
  ['hipercard', 'HIPERCARD', '6062825624254001'],
  ['unionpay', 'CUP', '6200000000000005'],
];
for (const [, network, number] of MARKS) {
  if (detectNetwork(number) !== network) {
    throw new Error(`the card rules detect ${number} as ${detectNetwork(number)}, not ${network}`);
  }
}

/** Lets the held payment go on; set while the "processing" state is on screen. */
let release: (() => void) | undefined;

const challengeOpen = async (scene: Scene) => {
  await openForm(scene, CARD, CARD_ONLY);
  await fillCard(scene.driver, CARDS.challenge);
  await scene.driver.click(PAY);
  await scene.driver.inFrame(() => seeText(scene.driver, 'Complete authentication'));
};

const methodChosen = async (
  scene: Scene,
  checkout: ResolvedCheckout,
  methods: string,
  method: string,
  field: string,
) => {
  await openForm(scene, { ...checkout, redirect: true }, { 'payment-methods': methods });
  await scene.driver.click(method);
  await waitFor(`the ${field} field`, () =>
    scene.driver.run<boolean>(EXISTS, 'field', nameArg(field)),
  );
};

const IDEAL = (scene: Scene) =>
  methodChosen(scene, { amount: 10, currency: 'EUR' }, 'card ideal bancontact', 'iDEAL', 'Email');
const BOLETO = (scene: Scene) =>
  methodChosen(scene, { amount: 10, currency: 'BRL' }, 'card boleto', 'Boleto', 'CPF or CNPJ');

/** The shopper's customer with one saved Visa ending in 0091, made once per sandbox. */
let savedCard: Promise<void> | undefined;
function saveCard(server: VisualServer): Promise<void> {
  savedCard ??= (async () => {
    const ok = async (response: Promise<Response>, what: string) => {
      const answer = await response;
      if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
    };
    await ok(server.provider('POST', '/v0.1/customers', { customer_id: SHOPPER }), 'customer');
    const { checkoutId } = await server.page({
      amount: 1,
      currency: 'EUR',
      customerId: SHOPPER,
      purpose: 'SETUP_RECURRING_PAYMENT',
      redirect: false,
    });
    await ok(
      server.provider('PUT', `/v0.1/checkouts/${checkoutId}`, {
        payment_type: 'card',
        card: {
          name: 'Ada Lovelace',
          number: CARDS.paid,
          expiry_month: '12',
          expiry_year: '2034',
          cvv: '123',
          last_4_digits: CARDS.paid.slice(-4),
          type: 'VISA',
        },
        mandate: { type: 'recurrent', user_agent: 'screenshots' },
      }),
      'saving a card',
    );
  })();
  return savedCard;
}

export const STATES: State[] = [
  {
    name: 'form',
    reach: (scene) => openForm(scene, CARD, CARD_ONLY),
  },
  ...MARKS.map(([name, network, number]) => ({
    name: `mark-${name}`,
    async reach(scene: Scene) {
      await emptyCardForm(scene);
      await scene.driver.fill('Card number', number);
      await networkShown(scene.driver, network);
    },
  })),
  {
    name: 'field-errors',
    async reach(scene) {
      await emptyCardForm(scene);
      await scene.driver.fill('Card number', '4200 0000 0000');
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Check the highlighted fields');
    },
  },
  {
    // The sandbox answers at once: the handler's front door holds the payment instead, so
    // "Processing…" stays on screen for the shots (the sandbox's latency fault sleeps on a
    // timer that would outlive the run).
    name: 'processing',
    async reach(scene) {
      await emptyCardForm(scene);
      await fillCard(scene.driver, CARDS.paid);
      const hold = scene.server.holdNextPayment();
      release = hold.release;
      await scene.driver.click(PAY);
      await hold.held;
      await seeText(scene.driver, 'Processing…');
    },
    async leave() {
      release?.();
      release = undefined;
    },
  },
  {
    name: 'success',
    async reach(scene) {
      // After "processing", the held payment goes on to this.
      if (await shows(scene.driver, 'Processing…')) {
        await seeText(scene.driver, 'Payment successful');
        return;
      }
      if (await shows(scene.driver, 'Payment successful')) return;
      await openForm(scene, CARD, CARD_ONLY);
      await fillCard(scene.driver, CARDS.paid);
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Payment successful');
    },
  },
  {
    // The shopper reloads the paid checkout's page.
    name: 'resumed-success',
    async reach(scene) {
      await open(scene.driver, scene.server.pageOf(scene.checkoutId, CARD_ONLY));
      await waitFor('payment-success, resumed', () =>
        scene.driver.run<boolean>(
          "return window.widgetEvents.some((e) => e.type === 'payment-success' && e.resumed);",
        ),
      );
    },
  },
  {
    name: 'declined',
    async reach(scene) {
      await openForm(scene, { ...CARD, amount: 11 }, CARD_ONLY);
      await fillCard(scene.driver, CARDS.paid);
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Your card was declined');
    },
  },
  {
    // The sandbox's card whose 3DS fails for a technical reason: the bank was never asked.
    name: 'bank-unreachable',
    async reach(scene) {
      await openForm(scene, CARD, CARD_ONLY);
      await fillCard(scene.driver, CARDS.threeDsError);
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Your bank could not be reached');
    },
  },
  { name: 'challenge', reach: challengeOpen },
  {
    name: 'challenge-failed',
    async reach(scene) {
      const open = await scene.driver
        .inFrame(() => shows(scene.driver, 'Fail authentication'))
        .catch(() => false);
      if (!open) await challengeOpen(scene);
      await scene.driver.inFrame(() => scene.driver.click('Fail authentication'));
      await seeText(scene.driver, 'Authentication failed');
    },
  },
  {
    // The shopper reloads during the full-page challenge (or comes Back from it): the
    // challenge is offered again, with its amount and why, behind a button.
    name: 'resumed-offer',
    async reach(scene) {
      await openForm(scene, { ...CARD, redirect: true }, CARD_ONLY);
      await fillCard(scene.driver, CARDS.challenge);
      await scene.driver.click(PAY);
      // The merchant's page leaves for the issuer's challenge page.
      await waitFor('the challenge page', () => shows(scene.driver, 'Complete authentication'));
      await open(scene.driver, scene.server.pageOf(scene.checkoutId, CARD_ONLY));
      await seeText(scene.driver, 'is not finished');
    },
  },
  {
    // The shopper reloads during the challenge in the widget after the merchant's server
    // restarted (a memory store, as in development): the handler no longer holds the step, so
    // the widget waits for the bank's answer, and says what happens next.
    name: 'resumed-pending',
    async reach(scene) {
      await challengeOpen(scene);
      scene.server.restartHandler();
      await open(scene.driver, scene.server.pageOf(scene.checkoutId, CARD_ONLY));
      await seeText(scene.driver, 'Payment pending');
    },
  },
  {
    // The merchant's server deactivates the checkout (the basket changed) before the page loads.
    name: 'no-longer-valid',
    async reach(scene) {
      const { url, checkoutId } = await scene.server.page(CARD, CARD_ONLY);
      scene.checkoutId = checkoutId;
      const deactivated = await scene.server.provider('DELETE', `/v0.1/checkouts/${checkoutId}`);
      if (!deactivated.ok) throw new Error(`deactivating: ${deactivated.status}`);
      await open(scene.driver, url);
      await seeText(scene.driver, 'This payment is no longer valid');
    },
  },
  { name: 'ideal-fields', reach: IDEAL },
  {
    // Declined on the sandbox's bank page, back on the merchant's page through the handler's
    // return route.
    name: 'bank-declined',
    async reach(scene) {
      if (!(await shows(scene.driver, 'First name'))) await IDEAL(scene);
      await fillPerson(scene.driver);
      await scene.driver.click(PAY);
      await scene.driver.click('Decline payment');
      // The bank sends the shopper to the handler's return route, which sends them on to the
      // merchant's page; but the suite's pages live in a frame, and the handler answers a
      // frame's return (Sec-Fetch-Dest: iframe, meant for a 3DS challenge in the widget) with
      // a page of its own. The suite opens the merchant's page the redirect names instead.
      await waitFor('the return to the handler', async () =>
        (await scene.driver.run<string>('return location.pathname;')).endsWith('/payments/return'),
      );
      await open(scene.driver, scene.server.pageOf(scene.checkoutId));
      await seeText(scene.driver, 'Payment failed');
    },
  },
  {
    name: 'blik-fields',
    reach: (scene) =>
      methodChosen(scene, { amount: 10, currency: 'PLN' }, 'card blik', 'BLIK', 'Email'),
  },
  { name: 'boleto-fields', reach: BOLETO },
  {
    name: 'boleto-voucher',
    async reach(scene) {
      const { driver } = scene;
      if (!(await shows(driver, 'CPF or CNPJ'))) await BOLETO(scene);
      await fillPerson(driver, 'Ana', 'Silva');
      await driver.fill('CPF or CNPJ', '529.982.247-25');
      await driver.fill('Street and number', 'Avenida Paulista 1000');
      await driver.fill('City', 'São Paulo');
      await driver.fill('State', 'SP');
      await driver.fill('Postal code', '01310100');
      await driver.click(PAY);
      await seeText(driver, 'Pay this boleto at a bank or online');
      await seeText(driver, 'Payment pending');
    },
    // The sandbox makes the barcode's digits from the checkout's id, a new UUID each run.
    masks: ['voucher-barcode'],
  },
  {
    name: 'installments',
    async reach(scene) {
      await openForm(
        scene,
        { ...CARD, currency: 'BRL' },
        { ...CARD_ONLY, 'show-installments': true },
      );
      await waitFor('the Installments field', () =>
        scene.driver.run<boolean>(EXISTS, 'field', nameArg('Installments')),
      );
    },
  },
  {
    name: 'saved-cards',
    async reach(scene) {
      await saveCard(scene.server);
      await openForm(
        scene,
        { ...CARD, customerId: SHOPPER },
        { ...CARD_ONLY, 'customer-id': SHOPPER },
      );
      await seeText(scene.driver, 'ending in 0091');
    },
  },
];
