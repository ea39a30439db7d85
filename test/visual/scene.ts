/**
 * What a state of the screenshot suite (states.ts) works with, and the steps states are made
 * of: opening a merchant's page and waiting for its widget, an empty card form, the network
 * marks' numbers, a customer with a saved card.
 */

import { detectNetwork } from '../../src/card/index.ts';
import type { ResolvedCheckout } from '../../src/server/index.ts';
import type { ColorScheme } from '../engines/driver.ts';
import { type Driver, EXISTS, type Name, nameArg, TEXT, waitFor } from '../engines/driver.ts';
import { CARDS, fillCard, PAY, seeText } from '../engines/shopper.ts';
import { type Attributes, SHOPPER, type VisualServer } from './server.ts';

/** The widths the suite sets the merchant's page to: a small phone, a phone, a tablet, a laptop. */
export const WIDTHS = [320, 360, 768, 1280] as const;
export type Width = (typeof WIDTHS)[number];

/**
 * How the merchant's page or the shopper's system changes the widget, for a shot: the page's
 * theme (the --payment-widget-* properties, and a ::part() rule), or forced colours (Windows'
 * high contrast; in the engines that have them).
 */
export type Look = 'themed' | 'forced';

/** A shot beyond a state's widths: in light, at `width`, in `look` if given. */
export interface Extra {
  width: Width;
  look?: Look;
}

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
  /**
   * The widths it is drawn at, in each of `schemes`: 360 px unless said. At a wider width it
   * is not drawn at, its layout must be the one at the widest drawn width below (360 px and
   * up), stretched (layout.ts's unlike()): a shot there would show nothing but wider boxes.
   */
  widths?: readonly Width[];
  /** The schemes it is drawn in at `widths`: light and dark unless said. */
  schemes?: readonly ColorScheme[];
  /** Shots beyond those, in light. */
  extra?: readonly Extra[];
}

export const CARD: ResolvedCheckout = { amount: 10, currency: 'EUR', redirect: false };
export const CARD_ONLY: Attributes = { 'payment-methods': 'card' };

/** Whether the merchant's page shows `text` now. */
export async function shows(driver: Driver, text: string): Promise<boolean> {
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
  // A frame that is itself leaving a page (the handler's return page going on to the result
  // page) has no document to run this in for a moment: asked again until one takes it.
  await waitFor(`a document in the frame to leave for ${url}`, () =>
    driver
      .run(
        'if (window.frameElement) window.frameElement.src = arguments[0]; else location.href = arguments[0];',
        url,
      )
      .then(() => true),
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
export async function openForm(
  scene: Scene,
  checkout: ResolvedCheckout,
  attributes: Attributes,
  pay: Name = PAY,
): Promise<void> {
  const { url, checkoutId } = await scene.server.page(checkout, attributes);
  scene.checkoutId = checkoutId;
  await open(scene.driver, url);
  await payable(scene.driver, pay);
}

/** Waits until the widget's form can be paid: its Pay button (`pay`) is there. */
export async function payable(driver: Driver, pay: Name = PAY): Promise<void> {
  await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(pay)));
}

/** A card form with nothing typed: the one on screen when there is one, else a new page. */
export async function emptyCardForm(scene: Scene): Promise<void> {
  const { driver } = scene;
  const fresh =
    (await driver.run<boolean>(EXISTS, 'field', nameArg('Card number'))) &&
    (await driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  if (!fresh) await openForm(scene, CARD, CARD_ONLY);
  // The public reset(): every field empty, no error shown.
  await driver.run("document.querySelector('payment-widget').reset();");
}

/** Waits for the widget's payment-change event naming `network`. */
export async function networkShown(driver: Driver, network: string): Promise<void> {
  await waitFor(`payment-change naming ${network}`, () =>
    driver.run<boolean>(
      `const changes = window.widgetEvents.filter((e) => e.type === 'payment-change');
       return changes.length > 0 && changes[changes.length - 1].network === arguments[0];`,
      network,
    ),
  );
}

/** Numbers each network's rules detect (checked below), Luhn-valid. */
export const MARKS: [name: string, network: string, number: string][] = [
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

/** The shopper's customer with one saved Visa ending in 0091, made once per sandbox. */
let savedCard: Promise<void> | undefined;
export function saveCard(server: VisualServer): Promise<void> {
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

/** A card form paid with the sandbox's 3DS card: its challenge open in the widget. */
export const challengeOpen = async (scene: Scene) => {
  await openForm(scene, CARD, CARD_ONLY);
  await fillCard(scene.driver, CARDS.challenge);
  await scene.driver.click(PAY);
  await scene.driver.inFrame(() => seeText(scene.driver, 'Complete authentication'));
};

export const methodChosen = async (
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

export /** A page that offers the bank methods, iDEAL chosen. */
const IDEAL = (scene: Scene) =>
  methodChosen(scene, { amount: 10, currency: 'EUR' }, 'card ideal bancontact', 'iDEAL', 'Email');
export const BOLETO = (scene: Scene) =>
  methodChosen(scene, { amount: 10, currency: 'BRL' }, 'card boleto', 'Boleto', 'CPF or CNPJ');
