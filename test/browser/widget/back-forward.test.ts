// A page the back-forward cache brings back (Back from a full-page 3DS challenge, or from
// another page left while a challenge showed) is the page as it was left, form and all: the
// widget loads its checkout again and offers the step still open, with "Try another card".
// That button gives a form fit for another card: the card's number, expiry and security code
// empty, nothing said of the old card (no network's mark, no error), what else the shopper
// typed kept, and focus, which was in the step, in Card number. The card never stays in a page
// that went to a full-page step. Playwright's Chromium keeps no page in that cache: the
// restore is the `pageshow` (persisted) the browser fires then, on a page as it was left.

import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PaymentWidget } from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillCard, paste, widget } from './fake-backend.ts';

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = {
  url: ACS,
  method: 'GET',
  payload: { PaReq: 'pareq-1', MD: 'md-1', TermUrl: ACS },
};

/** The card's fields and the name, as on screen. */
const typed = (el: PaymentWidget) =>
  ['number', 'expiry', 'cvv', 'name'].map((id) => $(el, `#${id}`).value);

/** The network's mark beside the card number ('' for the plain card outline). */
const mark = (el: PaymentWidget) =>
  el.shadowRoot?.querySelector('[part~=icon]')?.textContent?.trim() ?? '';

/** The page comes back from the back-forward cache. */
const restored = () => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));

/**
 * The step shows again with "Try another card", which a keyboard shopper tabs to and presses:
 * the form fits another card (its fields empty, nothing said of the old one, the name kept,
 * focus in Card number), and another card typed there pays.
 */
async function anotherCardPays(el: PaymentWidget, backend: FakeBackend): Promise<void> {
  await until('the step shows again', () =>
    Boolean(el.shadowRoot?.querySelector('[part~=resume]')),
  );
  for (
    let i = 0;
    i < 8 && el.shadowRoot?.activeElement?.textContent?.trim() !== 'Try another card';
    i++
  )
    await sendKeys({ press: 'Tab' });
  await sendKeys({ press: 'Enter' });
  await until('the form shows', () => !$(el, 'form').hidden);
  expect(typed(el)).to.deep.equal(['', '', '', 'Ada Lovelace']);
  await until('focus in Card number', () => el.shadowRoot?.activeElement?.id === 'number');
  expect(mark(el)).to.equal('');
  expect(el.shadowRoot?.querySelector('[aria-invalid=true]')).to.equal(null);

  await sendKeys({ type: '4242424242424242' });
  await el.updateComplete;
  expect($(el, '#number').value).to.equal('4242 4242 4242 4242');
  expect(mark(el)).to.equal('VISA');
  paste($(el, '#expiry'), '11/33');
  paste($(el, '#cvv'), '456');
  backend.process = () => {
    // Paid: the challenge is over.
    const { next_step: _, payment_type: __, ...checkout } = backend.checkout;
    backend.checkout = { ...checkout, status: 'PAID' };
    return { status: 200, body: backend.checkout };
  };
  const success = oneEvent(el, 'payment-success');
  void el.submit();
  await success;
  const body = backend.puts().at(-1)?.body as { card: Record<string, string> };
  expect(body.card).to.include({ number: '4242424242424242', cvv: '456', name: 'Ada Lovelace' });
}

describe('payment-widget: back by the back-forward cache, "Try another card"', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('after a full-page challenge: the card left the page with it, and another card pays', async () => {
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    backend.asksFor(CHALLENGE);
    const el = await widget(backend, 'checkout-id="chk_1"');
    const navigations: unknown[] = [];
    el.navigate = (request) => navigations.push(request);
    await fillCard(el, { number: '4200000000000042' });
    expect(mark(el)).to.equal('VISA');
    $(el, 'button[part~=button]').focus();
    await sendKeys({ press: 'Enter' });
    await until('the page goes to the challenge', () => navigations.length === 1);
    await el.updateComplete;
    // The page the cache keeps holds no card.
    expect(typed(el)).to.deep.equal(['', '', '', 'Ada Lovelace']);

    const ready = oneEvent(el, 'payment-ready');
    restored();
    await ready;
    await anotherCardPays(el, backend);
  });

  it('after a page left while a challenge showed in its iframe, the bank awaited: the card the cache kept goes', async () => {
    // The handler never gives the challenge back: the widget awaits the bank's answer.
    backend.process = () => ({ status: 202, body: { next_step: CHALLENGE } });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el, { number: '4200000000000042' });
    const challenge = oneEvent(el, 'payment-challenge');
    void el.submit();
    await challenge;

    // The shopper went to another page and came back: the form is as it was left.
    expect(typed(el)).to.deep.equal(['4200 0000 0000 0042', '12 / 34', '123', 'Ada Lovelace']);
    restored();
    await anotherCardPays(el, backend);
  });
});
