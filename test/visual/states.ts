/**
 * Every state the widget shows a shopper, and how a shopper gets there: through the real
 * handler and sandbox (the sandbox's documented cards, amount 11.00, its bank page's buttons,
 * its provider routes and faults), in the order the suite shoots them. A state may start from
 * where the one before it left the page (the failed 3DS from the open challenge, the form from
 * its loading placeholder); when it finds the page elsewhere (the state before it failed), it
 * gets there from the start.
 */
import { EXISTS, nameArg, waitFor } from '../engines/driver.ts';
import { CARDS, fillBoleto, fillCard, fillPerson, PAY, seeText } from '../engines/shopper.ts';
import {
  BOLETO,
  CARD,
  CARD_ONLY,
  challengeOpen,
  emptyCardForm,
  IDEAL,
  MARKS,
  methodChosen,
  networkShown,
  open,
  openForm,
  payable,
  type Scene,
  type State,
  saveCard,
  shows,
} from './scene.ts';
import { SHOPPER } from './server.ts';

export type { Scene, State } from './scene.ts';

/** Lets the held request go on; set while "loading" or "processing" is on screen. */
let release: (() => void) | undefined;
const letGo = async () => {
  release?.();
  release = undefined;
};

/** The checkout whose form the "loading" state held back. */
let loading: string | undefined;

/** The German form's Pay button: the amount, then "bezahlen". */
const GERMAN_PAY = / bezahlen$/;

/** What the themed shots and forced colours are taken of: a form, its errors, an outcome. */
const LOOKS = [
  { width: 360, look: 'themed' },
  { width: 360, look: 'forced' },
] as const;

export const STATES: State[] = [
  {
    // The placeholder drawn while the checkout loads: the handler's front door holds the load.
    name: 'loading',
    async reach(scene) {
      const { url, checkoutId } = await scene.server.page(CARD, CARD_ONLY);
      const hold = scene.server.holdNext('GET');
      release = hold.release;
      scene.checkoutId = checkoutId;
      await open(scene.driver, url);
      await hold.held;
      loading = checkoutId;
    },
    leave: letGo,
  },
  {
    name: 'form',
    // Narrower, the expiry date and the security code still share a row.
    extra: [{ width: 320 }, ...LOOKS],
    async reach(scene) {
      // After "loading", its held checkout arrives: the same page becomes this.
      if (loading === scene.checkoutId) await payable(scene.driver);
      else await openForm(scene, CARD, CARD_ONLY);
      loading = undefined;
    },
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
    extra: [{ width: 320 }, ...LOOKS],
    async reach(scene) {
      await emptyCardForm(scene);
      await scene.driver.fill('Card number', '4200 0000 0000');
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Check the highlighted fields');
    },
  },
  {
    // Over the handler's card-testing limit: another tab from the shopper's address (the
    // suite, through the handler) made the one payment the limit allows.
    name: 'rate-limited',
    // One line from 768 px on.
    widths: [360, 768],
    schemes: ['light'],
    async reach(scene) {
      await emptyCardForm(scene);
      await fillCard(scene.driver, CARDS.paid);
      await scene.server.spendPaymentLimit();
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'Too many payment attempts. Try again in 10 min.');
      // Where focus lands after a click that paid nothing, and whether its ring shows, differs
      // from run to run in WebKit: the shot is of the message, with no focus.
      await scene.driver.run(
        "document.querySelector('payment-widget').shadowRoot.activeElement?.blur();",
      );
    },
    async leave(scene) {
      scene.server.restartHandler();
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
      const hold = scene.server.holdNext('PUT');
      release = hold.release;
      await scene.driver.click(PAY);
      await hold.held;
      await seeText(scene.driver, 'Processing…');
    },
    leave: letGo,
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
    extra: LOOKS,
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
  {
    // From 768 px on, the challenge is a column of its own width.
    name: 'challenge',
    widths: [360, 768],
    reach: challengeOpen,
  },
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
    // From 768 px on, its words fit a line and its buttons their own width.
    widths: [360, 768],
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
    // What happens next takes four lines at 360 px, two at 768 and one at 1280.
    widths: [360, 768],
    extra: [{ width: 1280 }],
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
  {
    // The handler is down (or the page names the wrong endpoint): the checkout never loads.
    name: 'try-again',
    // One line from 768 px on.
    widths: [360, 768],
    schemes: ['light'],
    async reach(scene) {
      const { server, driver } = scene;
      const { url, checkoutId } = await server.page(CARD, {
        ...CARD_ONLY,
        endpoint: server.deadEndpoint,
      });
      scene.checkoutId = checkoutId;
      await open(driver, url);
      await waitFor('Try again', () =>
        driver.run<boolean>(EXISTS, 'control', nameArg('Try again')),
      );
      await seeText(driver, 'We could not reach the payment service');
    },
  },
  {
    // The provider lost the payment's answer and the handler could not read the checkout back
    // (PROCESS_OUTCOME_UNKNOWN): the card may have been charged, so the widget never offers
    // Pay again. What a provider that timed out leaves the shopper with.
    name: 'answer-lost',
    // What happens next takes four lines at 360 px, two at 768 and one at 1280.
    widths: [360, 768],
    schemes: ['light'],
    extra: [{ width: 1280 }],
    async reach(scene) {
      await openForm(scene, CARD, CARD_ONLY);
      await fillCard(scene.driver, CARDS.paid);
      await scene.server.loseNextPayment(scene.checkoutId);
      await scene.driver.click(PAY);
      await seeText(scene.driver, 'reload this page later');
    },
  },
  {
    // German, the longest of the widget's languages, where it is tightest.
    name: 'form-de',
    widths: [320],
    schemes: ['light'],
    reach: (scene) => openForm(scene, CARD, { ...CARD_ONLY, locale: 'de-DE' }, GERMAN_PAY),
  },
  {
    name: 'field-errors-de',
    widths: [320],
    schemes: ['light'],
    async reach(scene) {
      const { driver } = scene;
      if (!(await shows(driver, 'Kartennummer'))) {
        await openForm(scene, CARD, { ...CARD_ONLY, locale: 'de-DE' }, GERMAN_PAY);
      }
      await driver.run("document.querySelector('payment-widget').reset();");
      await driver.fill('Kartennummer', '4200 0000 0000');
      await driver.click(GERMAN_PAY);
      await seeText(driver, 'Prüfen Sie die markierten Felder');
    },
  },
  {
    // Three methods: two rows of choices at 360 px, one from 768 px on.
    name: 'ideal-fields',
    widths: [360, 768],
    reach: IDEAL,
  },
  {
    // Bancontact asks for what iDEAL does; its own choice is checked.
    name: 'bancontact-fields',
    // The methods in one row from 768 px on.
    widths: [360, 768],
    schemes: ['light'],
    async reach(scene) {
      if (!(await shows(scene.driver, 'First name'))) await IDEAL(scene);
      await scene.driver.click('Bancontact');
      await waitFor('Bancontact chosen', () =>
        scene.driver.run<boolean>(
          `return [...document.querySelector('payment-widget').shadowRoot
             .querySelectorAll('input[type=radio]')].some((r) => r.checked && r.value === 'bancontact');`,
        ),
      );
    },
  },
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
      // merchant's result page (/shop); the suite's pages live in a frame, which the handler
      // answers with a page of its own whose script goes on there (return-frame.ts), at once
      // or after a look at the return, as the engine is quick. Either way the frame has left
      // the bank; the suite then opens the merchant's page as its other scenes do. (Asked
      // while the frame navigates, the engine has no page to answer from: asked again.)
      await waitFor('the return to the handler, or the result page after it', async () => {
        const path = await scene.driver.run<string>('return location.pathname;').catch(() => '');
        return /\/payments\/return$|^\/shop$/.test(path);
      });
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
    // The barcode's digits take two lines at 360 px, one from 768 px on.
    widths: [360, 768],
    async reach(scene) {
      const { driver } = scene;
      if (!(await shows(driver, 'CPF or CNPJ'))) await BOLETO(scene);
      await fillBoleto(driver);
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
