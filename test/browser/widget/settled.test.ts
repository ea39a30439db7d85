// What the widget reports when the checkout settled elsewhere (a 409 from the
// process route), that a framework's re-render never opens a second checkout, and that a
// new order while a payment is out waits for the payment's answer.

import { expect, oneEvent } from '@open-wc/testing';
import type { HandlerErrorCode } from '../../../src/domain/errors.ts';
import { $, errorReply, FakeBackend, fillCard, type Reply, text, widget } from './fake-backend.ts';

/** Names of the outcome events the widget fires from now on. */
function outcomes(el: HTMLElement): string[] {
  const seen: string[] = [];
  for (const name of ['payment-success', 'payment-failure', 'payment-pending', 'payment-error']) {
    el.addEventListener(name, () => seen.push(name));
  }
  return seen;
}

/**
 * Whether the widget started loading its checkout again: a load shows its loading line in
 * the update that starts it (and calls fetch there, before updateComplete resolves).
 */
const reloading = (el: HTMLElement) => el.shadowRoot?.querySelector('[part=loading]') !== null;

describe('payment-widget: a 409 from the process route', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  /** The PUT is refused with a 409 while the checkout has become `status`. */
  function conflictThen(status: string, code: HandlerErrorCode = 'CONFLICT'): void {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status };
      return errorReply(409, code, `Checkout is ${status}`);
    };
  }

  for (const status of ['EXPIRED', 'FAILED']) {
    it(`re-reads the checkout and shows "Payment failed" when it is ${status}`, async () => {
      conflictThen(status);
      const el = await widget(backend, 'checkout-id="chk_1"');
      const seen = outcomes(el);
      await fillCard(el);
      const failure = oneEvent(el, 'payment-failure');
      $(el, 'button[part~=button]').click();
      expect((await failure).detail.checkout).to.include({ id: 'chk_1', status });
      await el.updateComplete;

      expect(seen).to.deep.equal(['payment-failure']);
      expect(text(el)).to.include('Payment failed');
      expect(text(el)).not.to.include('Try again');
      const after = backend.calls.slice(backend.calls.indexOf(backend.puts()[0]!) + 1);
      expect(after.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['GET /checkouts/chk_1']);
      await expect(el).to.be.accessible();
    });
  }

  it('reports a checkout paid meanwhile as a success, never as an error', async () => {
    conflictThen('PAID', 'CHECKOUT_PROCESSED');
    const el = await widget(backend, 'checkout-id="chk_1"');
    const seen = outcomes(el);
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    expect((await success).detail.checkout.status).to.equal('PAID');
    await el.updateComplete;
    expect(seen).to.deep.equal(['payment-success']);
    expect(text(el)).to.include('Payment successful');
    expect(el.shadowRoot!.querySelector<HTMLInputElement>('#number')?.value ?? '').to.equal('');
  });

  it('says the payment is no longer valid when the checkout is still open', async () => {
    // The provider refuses a checkout past its valid_until though it still reads PENDING.
    conflictThen('PENDING');
    const el = await widget(backend, 'checkout-id="chk_1"');
    const seen = outcomes(el);
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    void el.submit();
    expect((await error).detail).to.include({ code: 'CONFLICT', retryable: false });
    expect(seen).to.deep.equal(['payment-error']);
    await el.updateComplete;

    const status = el.shadowRoot!.querySelector('[part=status]');
    expect(status?.textContent).to.equal('This payment is no longer valid');
    // Nothing invites a retry that would be refused again.
    expect(text(el)).not.to.include('Try again');
    expect(el.shadowRoot!.querySelector('form')?.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part~=retry]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('keeps the conflict when the re-read fails too', async () => {
    conflictThen('EXPIRED');
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    backend.overrides.set('GET /checkouts/chk_1', () => {
      throw new TypeError('Failed to fetch');
    });
    const error = oneEvent(el, 'payment-error');
    void el.submit();
    expect((await error).detail).to.include({ code: 'CONFLICT', retryable: false });
    await el.updateComplete;
    expect($(el, 'button[part~=button]').disabled).to.equal(false);
  });
});

describe('payment-widget: setting order again', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  const creates = () => backend.calls.filter((c) => c.method === 'POST').length;

  /** From now on the handler makes a checkout for each order: chk_2, chk_3, at €5 a tee. */
  function eachOrderItsCheckout(): void {
    let made = 1;
    backend.overrides.set('POST /checkouts', () => {
      const { body } = backend.calls.at(-1) as { body: { order: { qty: number } } };
      const amount = body.order.qty * 5;
      backend.checkout = { ...backend.checkout, id: `chk_${++made}`, status: 'PENDING', amount };
      return { status: 201, body: backend.checkout };
    });
  }

  it('does not reload for a new but equal object (a framework re-render)', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    expect(creates()).to.equal(1);
    el.order = { sku: 'tee', qty: 2 };
    await el.updateComplete;
    expect(reloading(el)).to.equal(false);
    expect(creates()).to.equal(1);
    expect($(el, '#number')).to.exist;
  });

  it('reloads for a different order before paying', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    const ready = oneEvent(el, 'payment-ready');
    el.order = { sku: 'tee', qty: 3 };
    await ready;
    expect(creates()).to.equal(2);
    expect(backend.calls.filter((c) => c.method === 'POST').at(-1)?.body).to.deep.equal({
      order: { sku: 'tee', qty: 3 },
    });
  });

  it('after "Try another card", a different order still loads its own checkout', async () => {
    // A basket on the page (Alpine's x-data, a quantity field): declined, then the shopper
    // changes the quantity before paying again. The handler makes each order's checkout.
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    await fillCard(el);
    const failure = oneEvent(el, 'payment-failure');
    void el.submit();
    await failure;
    await el.updateComplete;
    eachOrderItsCheckout();
    const retried = oneEvent(el, 'payment-ready');
    $(el, 'button[part~=retry]').click();
    await retried;

    const ready = oneEvent(el, 'payment-ready');
    el.order = { sku: 'tee', qty: 3 };
    await ready;
    await el.updateComplete;
    expect(backend.calls.filter((c) => c.method === 'POST').at(-1)?.body).to.deep.equal({
      order: { sku: 'tee', qty: 3 },
    });
    expect($(el, 'button[part~=button]').textContent).to.include('€15.00');
  });

  it('a different order while the 3DS challenge shows: the new form, and the old challenge gone', async () => {
    // The shopper raises the quantity while their bank asks: the handler retires the old
    // checkout, and its challenge can neither be answered nor report "no longer valid".
    const url = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
    const next_step = { url, method: 'GET', payload: { PaReq: 'p', MD: 'm', TermUrl: url } };
    backend.process = () => ({ status: 202, body: { next_step } });
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    await fillCard(el);
    const challenge = oneEvent(el, 'payment-challenge');
    void el.submit();
    await challenge;
    const retired = { ...backend.checkout, status: 'EXPIRED' };
    backend.overrides.set('GET /checkouts/chk_1', () => ({ status: 200, body: retired }));
    eachOrderItsCheckout();

    const ready = oneEvent(el, 'payment-ready');
    el.order = { sku: 'tee', qty: 3 };
    await ready;
    await el.updateComplete;
    expect(text(el)).not.to.include('Confirm the payment with your bank');
    expect(el.shadowRoot?.querySelectorAll('iframe').length).to.equal(0);
    expect($(el, 'button[part~=button]').textContent).to.include('€15.00');
    // Loaded once for it: the challenge's payment, ended by that load, starts no other.
    expect(creates()).to.equal(2);
  });

  /** The process request waits until the test answers it (`answer`), the payment out meanwhile. */
  function heldPayment(): (reply: () => Reply) => void {
    let answer: (reply: () => Reply) => void = () => {};
    backend.process = () => new Promise<() => Reply>((held) => (answer = held)).then((r) => r());
    return (reply) => answer(reply);
  }

  it('a different order while the payment is out: nothing loads, and its outcome comes once', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    await fillCard(el);
    const answer = heldPayment();
    // The basket's handler answers a page loaded meanwhile once the payment is over: paid.
    let paid = () => {};
    const over = new Promise<void>((done) => (paid = done));
    backend.overrides.set('POST /checkouts', () =>
      over.then(() => ({ status: 200, body: backend.checkout })),
    );
    const seen = outcomes(el);
    void el.submit();
    await el.updateComplete;
    el.order = { sku: 'tee', qty: 3 };
    await el.updateComplete;
    expect(reloading(el)).to.equal(false);
    expect(creates()).to.equal(1);
    expect($(el, 'button[part~=button]').textContent).to.include('Processing');

    const success = oneEvent(el, 'payment-success');
    answer(() => {
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      paid();
      return { status: 200, body: backend.checkout };
    });
    expect((await success).detail.resumed).to.not.equal(true);
    await el.updateComplete;
    expect(seen).to.deep.equal(['payment-success']);
    expect(creates()).to.equal(1);
    expect(text(el)).to.include('Payment successful');
  });

  it('a different order while the payment is out, its answer lost: the new order to pay', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    await fillCard(el);
    const answer = heldPayment();
    void el.submit();
    await el.updateComplete;
    el.order = { sku: 'tee', qty: 3 };
    await el.updateComplete;
    eachOrderItsCheckout();
    // No answer reaches the page; read back, the checkout is untouched.
    const ready = oneEvent(el, 'payment-ready');
    answer(() => {
      throw new TypeError('Failed to fetch');
    });
    await ready;
    await el.updateComplete;
    expect(creates()).to.equal(2);
    expect(backend.calls.filter((c) => c.method === 'POST').at(-1)?.body).to.deep.equal({
      order: { sku: 'tee', qty: 3 },
    });
    expect($(el, 'button[part~=button]').textContent).to.include('€15.00');
  });

  it('never reloads once the payment has a final outcome', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    const calls = backend.calls.length;

    el.order = { sku: 'tee', qty: 2 };
    el.order = { sku: 'cap', qty: 1 };
    await el.updateComplete;
    expect(reloading(el)).to.equal(false);
    expect(backend.calls.length).to.equal(calls);
    expect(text(el)).to.include('Payment successful');
  });
});
