// A checkout whose step is still open when the widget loads (a reload mid-challenge, the back
// button from the bank's page) shows that step again, never a blank form: the challenge in its
// iframe, a page step offered behind a button, or, when the step cannot be shown again, a
// wait for the bank's answer with another card offered. Each reads the checkout back, so an
// approval elsewhere shows by itself. axe-clean, and reachable by keyboard, in each state.

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type {
  PaymentChallengeDetail,
  PaymentCheckoutDetail,
  PaymentWidget,
} from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, text, widget } from './fake-backend.ts';

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;

const CHALLENGE = {
  url: ACS,
  method: 'GET',
  payload: { PaReq: 'pareq-1', MD: 'md-1', TermUrl: ACS },
};
const BANK = {
  url: 'https://bank.example/ideal/chk_1',
  method: 'GET',
  payload: { tx: 'tx-1' },
  full: 'https://bank.example/ideal/chk_1?tx=tx-1',
};

/** This tab's memory of the step it ran for chk_1 (what a reload keeps). */
const STEP_KEY = 'payment-widget:step:chk_1';

const formShown = (el: PaymentWidget) => !$(el, 'form').hidden;

/** Resolves with the event's detail when `name` fires on the page, for events at load. */
function next<T>(name: string): Promise<T> {
  return new Promise((resolve) =>
    document.addEventListener(name, (e) => resolve((e as CustomEvent<T>).detail), { once: true }),
  );
}

/** Whether `label`'s button is on screen and takes focus from the keyboard (Tab). */
async function tabTo(el: PaymentWidget, label: string): Promise<boolean> {
  for (let i = 0; i < 8; i += 1) {
    await sendKeys({ press: 'Tab' });
    if (el.shadowRoot?.activeElement?.textContent?.trim() === label) return true;
  }
  return false;
}

/** The checkout as the handler holds it while the shopper is at iDEAL's page. */
function openAtBank(backend: FakeBackend): void {
  backend.methods = ['card', 'ideal'];
  backend.checkout = {
    ...backend.checkout,
    redirect_url: 'https://shop.example/return',
    next_step: BANK,
    payment_type: 'ideal',
  };
}

/** The text of what has focus inside the widget, or '' when focus is not in it. */
const focusedText = (el: PaymentWidget): string =>
  el.shadowRoot?.activeElement?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('payment-widget: a step still open when it loads', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
    sessionStorage.removeItem(STEP_KEY);
  });
  afterEach(() => {
    backend.restore();
    sessionStorage.removeItem(STEP_KEY);
  });

  it('a challenge for the iframe: shown in the iframe again, with payment-challenge', async () => {
    backend.checkout = { ...backend.checkout, next_step: CHALLENGE, payment_type: 'card' };
    const challenge = next<PaymentChallengeDetail>('payment-challenge');
    const el = await widget(backend, 'checkout-id="chk_1"');
    expect(await challenge).to.deep.equal({ mode: 'iframe', url: ACS });
    await el.updateComplete;
    const frame = el.shadowRoot?.querySelector('iframe');
    expect(frame, 'the challenge iframe').to.not.equal(null);
    expect(formShown(el)).to.equal(false);
    expect(backend.puts()).to.have.length(0);
    expect(sessionStorage.getItem(STEP_KEY)).to.equal('challenge-iframe');
    await expect(el).to.be.accessible();
  });

  it('approved elsewhere meanwhile: "Payment successful", read back by itself', async () => {
    backend.checkout = { ...backend.checkout, next_step: CHALLENGE, payment_type: 'card' };
    const el = await widget(backend, 'checkout-id="chk_1"');
    await until('the challenge shows', () => Boolean(el.shadowRoot?.querySelector('iframe')));
    const { next_step: _, payment_type: __, ...paid } = backend.checkout;
    backend.checkout = { ...paid, status: 'PAID' };
    // The widget reads the checkout back by itself (about every 2 s): no visibilitychange.
    const success = await oneEvent(el, 'payment-success');
    expect(success.detail.resumed).to.equal(undefined);
    expect(success.detail.checkout.status).to.equal('PAID');
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    expect(el.shadowRoot?.querySelector('iframe')).to.equal(null);
  });

  it('a full-page challenge: offered behind a button, never followed by itself', async () => {
    backend.checkout = {
      ...backend.checkout,
      redirect_url: 'https://shop.example/return',
      next_step: CHALLENGE,
      payment_type: 'card',
    };
    const navigations: unknown[] = [];
    // The page stays put: what would leave it is recorded instead.
    backend.install();
    const el = document.createElement('payment-widget');
    el.navigate = (request) => navigations.push(request);
    el.setAttribute('locale', 'en-GB');
    el.setAttribute('checkout-id', 'chk_1');
    await fixture(html`${el}`);
    await until('the offer shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    expect(formShown(el)).to.equal(false);
    expect(navigations).to.have.length(0);
    await expect(el).to.be.accessible();
    expect(await tabTo(el, 'Confirm the payment with your bank')).to.equal(true);

    const challenge = oneEvent(el, 'payment-challenge');
    await sendKeys({ press: 'Enter' });
    expect((await challenge).detail).to.deep.equal({ mode: 'redirect', url: ACS });
    expect(navigations).to.deep.equal([{ url: ACS, method: 'GET', fields: CHALLENGE.payload }]);
  });

  it('a bank page, left for another way to pay: the form, and a reload shows the form too', async () => {
    openAtBank(backend);
    sessionStorage.setItem(STEP_KEY, 'apm-redirect');
    const el = await widget(backend, 'checkout-id="chk_1"');
    await until('the offer shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    expect(await tabTo(el, 'Try another way to pay')).to.equal(true);
    await sendKeys({ press: 'Enter' });
    await until('the form shows', () => Boolean(formShown(el)));
    expect(el.shadowRoot?.querySelector('[part~=resume]')).to.equal(null);
    // The button went with the offer: focus is in the form again, never back at the page's top.
    await until('focus on Pay', () => focusedText(el) === 'Pay €10.00');
    el.remove();

    const again = await widget(backend, 'checkout-id="chk_1"');
    await again.updateComplete;
    expect(formShown(again)).to.equal(true);
    expect(again.shadowRoot?.querySelector('[part~=resume]')).to.equal(null);
  });

  for (const [status, event, shown, focus] of [
    ['PAID', 'payment-success', 'Payment successful', 'Payment successful You paid €10.00'],
    ['FAILED', 'payment-failure', 'Payment failed', 'Try another way to pay'],
  ] as const) {
    it(`a bank page offered again, the shopper on its button, the bank answers elsewhere (${status}): focus on what shows`, async () => {
      openAtBank(backend);
      const el = await widget(backend, 'checkout-id="chk_1"');
      await until('the offer shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
      expect(await tabTo(el, 'Confirm the payment with your bank')).to.equal(true);
      // Approved (or declined) in the bank's app: the widget's own read-back finds it.
      const { next_step: _, payment_type: __, ...settled } = backend.checkout;
      backend.checkout = { ...settled, status };
      await oneEvent(el, event);
      await el.updateComplete;
      expect(text(el)).to.include(shown);
      // A keyboard or screen-reader shopper is not sent back to the page's top.
      await until(`focus on "${focus}"`, () => focusedText(el) === focus);
    });
  }

  it('a step this tab ran that the handler no longer holds: pending, the bank awaited, another card offered', async () => {
    sessionStorage.setItem(STEP_KEY, 'challenge-iframe');
    const el = await widget(backend, 'checkout-id="chk_1"');
    await until('the wait shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    expect(text(el)).to.include('Payment pending');
    expect(formShown(el)).to.equal(false);
    await expect(el).to.be.accessible();
    expect(await tabTo(el, 'Try another card')).to.equal(true);

    // The bank says no meanwhile: an authentication that failed, read back by itself.
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    await oneEvent(el, 'payment-failure');
    await el.updateComplete;
    expect(text(el)).to.include('Authentication failed');
  });

  it('waiting because the handler could not give the step back (its store away): the step shows once it can', async () => {
    sessionStorage.setItem(STEP_KEY, 'challenge-iframe');
    const el = await widget(backend, 'checkout-id="chk_1"');
    await until('the wait shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    expect(text(el)).to.include('Payment pending');
    // The handler's store is back: its next read of the checkout carries the open challenge,
    // which the bank answers only once the shopper has been through it.
    backend.checkout = { ...backend.checkout, next_step: CHALLENGE, payment_type: 'card' };
    const challenge = await oneEvent(el, 'payment-challenge');
    expect(challenge.detail).to.deep.equal({ mode: 'iframe', url: ACS });
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('iframe'), 'the challenge iframe').to.not.equal(null);
    expect(el.shadowRoot?.querySelector('[part~=resume]'), 'the wait').to.equal(null);
    expect(text(el)).to.not.include('Payment pending');
    expect(backend.puts()).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('"Try another card" while waiting: the form, still payable', async () => {
    sessionStorage.setItem(STEP_KEY, 'challenge-iframe');
    const el = await widget(backend, 'checkout-id="chk_1"');
    await until('the wait shows', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    $(el, 'button.step-other').click();
    await until('the form shows', () => Boolean(formShown(el)));
    expect($(el, 'button[part~=button]').disabled).to.equal(false);
  });

  it('a boleto issued: its voucher again, pending, never a form that cannot pay', async () => {
    backend.methods = ['card', 'boleto'];
    const boleto = { barcode: '12345678901234567890', url: 'https://bank.example/boleto.pdf' };
    backend.checkout = { ...backend.checkout, currency: 'BRL', boleto };
    const pending = next<PaymentCheckoutDetail>('payment-pending');
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Issued before this page: the page's own count of vouchers issued is not counted again.
    expect((await pending).resumed).to.equal(true);
    await el.updateComplete;
    expect(formShown(el)).to.equal(false);
    expect(text(el)).to.include('Payment pending');
    expect($(el, '[part~=voucher-barcode]').textContent).to.equal('12345 67890 12345 67890');
    expect($(el, '[part~=voucher-link]').getAttribute('href')).to.equal(boleto.url);
    expect(backend.puts()).to.have.length(0);
  });

  it('a pending checkout with no step anywhere: the form, as always', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    expect(formShown(el)).to.equal(true);
    expect(el.shadowRoot?.querySelector('[part~=resume]')).to.equal(null);
  });
});
