// When the answer to Pay never comes (a phone changing networks, a backend that hangs), the
// widget reads the checkout back before it says anything: a charged card is never shown as
// an error, an untouched checkout gives the form back with the card kept, and a step the
// answer opened shows from the checkout read back (the widget is not loaded again).
import { expect, oneEvent } from '@open-wc/testing';
import { TIMEOUT_MS } from '../../../src/widget/checkout/backend.ts';
import { READ_BACK_MS } from '../../../src/widget/checkout/read-back.ts';
import { until } from '../../shared/until.ts';
import {
  $,
  errorReply,
  FakeBackend,
  fillBoletoPayer,
  fillCard,
  paste,
  type Reply,
  text,
  widget,
} from './fake-backend.ts';

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = { url: ACS, method: 'GET', payload: { PaReq: 'pareq-1', MD: 'md-1' } };

describe('payment-widget: a lost answer to Pay', () => {
  let backend: FakeBackend;
  const saved = { ...TIMEOUT_MS };
  const savedReadBack = { ...READ_BACK_MS };
  /**
   * What navigator.onLine says: the widget reads a lost answer back only when the browser was
   * online as Pay was sent. Set here, not left to the machine's network (a CI machine's may
   * change mid-run); the offline test turns it off.
   */
  let online = true;
  beforeEach(() => {
    backend = new FakeBackend();
    // The real limits are tens of seconds; the behaviour is the same at a fraction of one.
    TIMEOUT_MS.process = 300;
    TIMEOUT_MS.read = 300;
    online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  });
  afterEach(() => {
    backend.restore();
    Object.assign(TIMEOUT_MS, saved);
    Object.assign(READ_BACK_MS, savedReadBack);
    Reflect.deleteProperty(navigator, 'onLine');
  });

  /** The PUT reaches the backend, which charges, but its answer never reaches the page. */
  const chargedThenLost = () => {
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      throw new TypeError('Failed to fetch');
    });
  };

  it('charged, answer lost: the checkout is read back and shows "Payment successful"', async () => {
    chargedThenLost();
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const errors: unknown[] = [];
    el.addEventListener('payment-error', (e) => errors.push(e.detail));
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    expect((await success).detail.checkout.status).to.equal('PAID');
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    expect(errors).to.deep.equal([]);
    expect(backend.puts()).to.have.length(1);
  });

  it('a backend that never answers: after the time limit the truth is read back', async () => {
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return new Promise<Reply>(() => {});
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
  });

  it('untouched: a retryable TIMEOUT, the card kept, and Pay works again', async () => {
    let hang = true;
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      if (hang) return new Promise<Reply>(() => {});
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return { status: 200, body: backend.checkout };
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ code: 'TIMEOUT', retryable: true });
    await el.updateComplete;
    expect($(el, '[part~=status]').textContent?.trim()).to.equal(
      'We could not reach the payment service. Check your connection and try again.',
    );
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');
    expect(
      backend.calls.filter((c) => c.method === 'GET' && c.path === '/checkouts/chk_1'),
    ).to.have.length.greaterThan(1, 'the checkout was read back');

    hang = false;
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
  });

  it('the read-back tries again while the network is still down, then tells the truth', async () => {
    chargedThenLost();
    let reads = 0;
    const el = await widget(backend, 'checkout-id="chk_1"');
    backend.overrides.set('GET /checkouts/chk_1', () => {
      reads += 1;
      if (reads < 3) throw new TypeError('Failed to fetch');
      return { status: 200, body: backend.checkout };
    });
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
    expect(reads).to.be.greaterThan(2);
  });

  it('a network that stalls (no answer, no refusal): the read-back ends within its allowance, not a read time limit per try', async () => {
    // The read's own limit is as long as the real one; the read-back's whole allowance short.
    TIMEOUT_MS.read = 15_000;
    READ_BACK_MS.total = 600;
    const el = await widget(backend, 'checkout-id="chk_1"');
    backend.overrides.set('PUT /checkouts/chk_1', () => new Promise<Reply>(() => {}));
    backend.overrides.set('GET /checkouts/chk_1', () => new Promise<Reply>(() => {}));
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    const pressed = performance.now();
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ code: 'TIMEOUT', retryable: true });
    // Before: 5 reads of 15 s each and the waits between them, "Processing…" all along.
    expect(performance.now() - pressed).to.be.below(TIMEOUT_MS.read);
    await el.updateComplete;
    expect($(el, '[part~=status]').textContent?.trim()).to.equal(
      'We could not reach the payment service. Check your connection and try again.',
    );
  });

  it('offline when Pay is pressed: told at once, nothing read back, and Pay works once online', async () => {
    online = false;
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      if (!online) throw new TypeError('Failed to fetch');
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return { status: 200, body: backend.checkout };
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Offline, no call gets through, the read-back's neither.
    backend.overrides.set('GET /checkouts/chk_1', () => {
      if (!online) throw new TypeError('Failed to fetch');
      return { status: 200, body: backend.checkout };
    });
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ code: 'NETWORK_ERROR', retryable: true });
    await el.updateComplete;
    expect($(el, '[part~=status]').textContent?.trim()).to.equal(
      'We could not reach the payment service. Check your connection and try again.',
    );
    // Nothing left the browser, so nothing is read back: no "Processing…" for the tries.
    expect(
      backend.calls.filter((c) => c.method === 'GET' && c.path === '/checkouts/chk_1'),
    ).to.have.length(1, 'only the first load read the checkout');
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');

    online = true;
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    expect((await success).detail.checkout.status).to.equal('PAID');
  });

  it('charged, the answer and every read-back lost: back online, the checkout is read again and shows "Payment successful"', async () => {
    READ_BACK_MS.total = 600;
    chargedThenLost();
    const el = await widget(backend, 'checkout-id="chk_1"');
    let down = true;
    backend.overrides.set('GET /checkouts/chk_1', () => {
      if (down) throw new TypeError('Failed to fetch');
      return { status: 200, body: backend.checkout };
    });
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ retryable: true });
    // Before: "We could not reach the payment service" and Pay stayed, paid as it was.
    down = false;
    const success = oneEvent(el, 'payment-success');
    window.dispatchEvent(new Event('online'));
    expect((await success).detail.checkout.status).to.equal('PAID');
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    expect(backend.puts()).to.have.length(1);
  });

  /** A boleto's payer filled in, on a page that offers boleto alone. */
  const boletoForm = async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    fillBoletoPayer(el);
    paste($(el, '#taxId'), '123.456.789-09');
    return el;
  };

  /**
   * The PUT reaches the backend, which does what `backend.process` does (a challenge asked
   * for, a voucher issued), but its answer never reaches the page.
   */
  const openedThenLost = () => {
    const process = backend.process;
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      void process(undefined);
      throw new TypeError('Failed to fetch');
    });
  };

  /**
   * What the page hears and the widget asks from now on: payment-ready (the form loaded
   * again) and every request, as "METHOD path".
   */
  const watch = (el: HTMLElement) => {
    const ready: unknown[] = [];
    el.addEventListener('payment-ready', (e) => ready.push(e.detail));
    const from = backend.calls.length;
    return { ready, requests: () => backend.calls.slice(from).map((c) => `${c.method} ${c.path}`) };
  };

  /** Where focus is inside the widget: 'step', 'Pay', a field's id, or '' (not inside). */
  const focusIn = (el: HTMLElement): string => {
    const held = el.shadowRoot?.activeElement;
    if (held?.closest('.next-step')) return 'step';
    return held?.matches('[type=submit]') ? 'Pay' : (held?.id ?? '');
  };

  it('a challenge asked for, its answer lost: the challenge shows from the checkout read back, with focus, nothing loaded again', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, next_step: CHALLENGE, payment_type: 'card' };
      return { status: 202, body: { next_step: CHALLENGE } };
    };
    openedThenLost();
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const seen = watch(el);
    const errors: unknown[] = [];
    el.addEventListener('payment-error', (e) => errors.push(e.detail));
    const challenge = oneEvent(el, 'payment-challenge');
    const pay = $(el, 'button[part~=button]');
    pay.focus();
    pay.click();
    expect((await challenge).detail).to.deep.equal({ mode: 'iframe', url: ACS });
    await el.updateComplete;
    // Before: the widget loaded again (the checkout read a second time, its methods fetched,
    // payment-ready heard a second time), and focus was left on the page.
    expect(seen.requests()).to.deep.equal(['PUT /checkouts/chk_1', 'GET /checkouts/chk_1']);
    expect(seen.ready).to.deep.equal([]);
    expect(focusIn(el)).to.equal('step', 'focus in the challenge, as after its answer');
    expect(errors).to.deep.equal([]);

    // Cancelled: the form again, the card as it was (its network known), focus on Pay.
    $(el, '[part~=challenge-cancel]').click();
    await until('the form again', () => !$(el, 'form').hidden);
    await until('focus on Pay', () => focusIn(el) === 'Pay');
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');
    expect($(el, '[part~=icon]').textContent?.trim()).to.equal('VISA');
    expect(backend.puts()).to.have.length(1);
  });

  it('a boleto issued, its answer lost: the voucher shows, pending (not resumed: this Pay issued it), and no error', async () => {
    backend.issuesBoleto(['boleto']);
    openedThenLost();
    const el = await boletoForm();
    const seen = watch(el);
    const errors: unknown[] = [];
    el.addEventListener('payment-error', (e) => errors.push(e.detail));
    const pending = oneEvent(el, 'payment-pending');
    void el.submit();
    // Before: { resumed: true }, as for a voucher issued before the page loaded, after a
    // second payment-ready.
    expect((await pending).detail).not.to.have.property('resumed');
    await el.updateComplete;
    expect(text(el)).to.include('Payment pending').and.include('12345 67890');
    expect(errors).to.deep.equal([]);
    expect(seen.ready).to.deep.equal([]);
    expect(seen.requests()).to.deep.equal(['PUT /checkouts/chk_1', 'GET /checkouts/chk_1']);
  });

  it('a boleto issued, a second Pay refused (409): the voucher shows, never "no longer valid", nothing loaded again', async () => {
    backend.issuesBoleto(['boleto']);
    const issue = backend.process;
    backend.process = (body) => {
      issue(body);
      return errorReply(409, 'CHECKOUT_PROCESSED', 'Checkout already processed');
    };
    const el = await boletoForm();
    const seen = watch(el);
    const pending = oneEvent(el, 'payment-pending');
    void el.submit();
    expect((await pending).detail).not.to.have.property('resumed');
    await el.updateComplete;
    expect(text(el)).to.include('Payment pending').and.include('12345 67890');
    expect(text(el)).not.to.include('no longer valid');
    expect(seen.ready).to.deep.equal([]);
    expect(seen.requests()).to.deep.equal(['PUT /checkouts/chk_1', 'GET /checkouts/chk_1']);
  });
});
