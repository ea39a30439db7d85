// The page moves under the widget: a single-page app's route changes, or a modal closes,
// while a payment is out, and the widget goes with it; or the page names another checkout
// while the widget still reads the previous one back. What the old element hears after
// that is nobody's: it shows nothing, tells nothing, and asks the backend nothing more; a
// widget mounted again for the checkout shows it as the backend reads it, and pays nothing.
import { expect, oneEvent } from '@open-wc/testing';
import { mount, type PaymentWidget } from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import {
  $,
  challenged,
  errorReply,
  FakeBackend,
  fillCard,
  held,
  type Reply,
  record,
  taskOver,
  text,
  widget,
} from './fake-backend.ts';

/**
 * A widget for `chk_1`, its card filled in and paid, the process request out until the test
 * answers it: the element, what it fires from then on, the payment, and the answer.
 */
async function payingHeld(backend: FakeBackend) {
  const asked = held(backend, 'PUT /checkouts/chk_1');
  const el = await widget(backend, 'checkout-id="chk_1"');
  const events = record(el);
  await fillCard(el);
  const paying = el.submit();
  return { el, events, paying, answer: await asked };
}

/** The checkout `chk_2`, which the page names next: another amount, so its form tells. */
function nextCheckout(backend: FakeBackend): void {
  const next = { ...backend.checkout, id: 'chk_2', amount: 25 };
  backend.overrides.set('GET /checkouts/chk_2', () => ({ status: 200, body: next }));
}

/** A proxy's answer in front of the handler: the answer lost, as far as the widget knows. */
const BAD_GATEWAY: Reply = {
  status: 502,
  body: '<html>Bad gateway</html>',
  notFromHandler: 'a proxy',
};

describe('payment-widget: the page moves under it', () => {
  let backend: FakeBackend;
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
  beforeEach(() => {
    backend = new FakeBackend();
    unhandled.length = 0;
    addEventListener('unhandledrejection', onUnhandled);
  });
  afterEach(() => {
    removeEventListener('unhandledrejection', onUnhandled);
    backend.restore();
  });

  it('removed while Pay is out, paid: tells nothing, and a new widget shows the payment', async () => {
    const { el, events, paying, answer } = await payingHeld(backend);
    el.remove();
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    answer({ status: 200, body: backend.checkout });
    await paying;
    expect(events).to.deep.equal(['payment-submit']);

    const again = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-success' });
    expect(text(again)).to.include('Payment successful');
    expect(backend.puts()).to.have.length(1);
    expect(unhandled).to.deep.equal([]);
  });

  it('removed while Pay is out, and put back: it shows what the backend reads', async () => {
    const { el, paying, answer } = await payingHeld(backend);
    const parent = el.parentElement as HTMLElement;
    el.remove();
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    answer({ status: 200, body: backend.checkout });
    await paying;
    const success = oneEvent(el, 'payment-success');
    parent.append(el);
    expect((await success).detail.resumed).to.equal(true);
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    expect(backend.puts()).to.have.length(1);
  });

  it('unmounted through mount() while Pay is out: onResponse hears nothing more', async () => {
    const asked = held(backend, 'PUT /checkouts/chk_1');
    backend.install();
    const host = document.createElement('div');
    host.id = 'unmounted-host';
    document.body.append(host);
    const heard: string[] = [];
    const mounted = mount({
      id: host.id,
      checkoutId: 'chk_1',
      locale: 'en-GB',
      onResponse: (type) => heard.push(type),
    });
    const el = host.querySelector('payment-widget') as PaymentWidget;
    await oneEvent(el, 'payment-ready');
    await el.updateComplete;
    await fillCard(el);
    const paying = mounted.submit();
    const answer = await asked;
    mounted.unmount();
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    answer({ status: 200, body: backend.checkout });
    await paying;
    expect(heard).to.deep.equal(['sent']);
    host.remove();
  });

  it('removed while Pay is out, the answer lost: no error told, nothing read back', async () => {
    const { el, events, paying, answer } = await payingHeld(backend);
    el.remove();
    const before = backend.calls.length;
    answer(BAD_GATEWAY);
    await paying;
    expect(events).to.deep.equal(['payment-submit']);
    expect(backend.calls.length).to.equal(before);
    expect(unhandled).to.deep.equal([]);
  });

  it('another checkout named while Pay is out: the old answer is not shown for it', async () => {
    const { el, events, paying, answer } = await payingHeld(backend);
    nextCheckout(backend);
    const ready = oneEvent(el, 'payment-ready');
    el.checkoutId = 'chk_2';
    await ready;
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    answer({ status: 200, body: backend.checkout });
    await paying;
    await el.updateComplete;
    expect(events).to.deep.equal(['payment-submit', 'payment-ready']);
    expect(text(el)).not.to.include('Payment successful');
    expect($(el, 'button[type=submit]').textContent?.trim()).to.equal('Pay €25.00');
  });

  it('another checkout named while the lost answer is read back: the old one is not shown', async () => {
    const { el, events, paying, answer } = await payingHeld(backend);
    const asked = held(backend, 'GET /checkouts/chk_1');
    answer(BAD_GATEWAY);
    const readBack = await asked;
    nextCheckout(backend);
    const ready = oneEvent(el, 'payment-ready');
    el.checkoutId = 'chk_2';
    await ready;
    readBack({ status: 200, body: { ...backend.checkout, status: 'PAID' } });
    await paying;
    await el.updateComplete;
    expect(events).to.deep.equal(['payment-submit', 'payment-ready']);
    expect(text(el)).not.to.include('Payment successful');
    expect($(el, 'button[type=submit]').textContent?.trim()).to.equal('Pay €25.00');
  });

  it('removed while the lost answer is read back: it asks no more', async () => {
    const { el, events, paying, answer } = await payingHeld(backend);
    const asked = held(backend, 'GET /checkouts/chk_1');
    answer(BAD_GATEWAY);
    const readBack = await asked;
    el.remove();
    const calls = backend.calls.length;
    readBack(BAD_GATEWAY);
    // Before, it went on asking for the rest of its allowance (about 10 s), then said so.
    await paying;
    expect(backend.calls.length).to.equal(calls);
    expect(events).to.deep.equal(['payment-submit']);
  });

  it('removed while a challenge shows: it ends, hears nothing more, and shows again in a new widget', async () => {
    const { el, events } = await challenged(backend);
    const frame = el.shadowRoot?.querySelector('iframe');
    expect(frame?.isConnected).to.equal(true);
    el.remove();
    // Once it has left the page (a move puts it back within the task), the step went with
    // the element: its frame, its read-backs, its listeners.
    await taskOver();
    expect(frame?.isConnected).to.equal(false);
    const before = backend.calls.length;
    dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(backend.calls.length).to.equal(before);
    expect(events).to.deep.equal(['payment-submit', 'payment-challenge']);

    const again = await widget(backend, 'checkout-id="chk_1"');
    await until('the challenge again', () => Boolean(again.shadowRoot?.querySelector('iframe')));
    expect(backend.puts()).to.have.length(1);
    expect(unhandled).to.deep.equal([]);
  });

  it('another checkout named while the last one is read back as the page loads: its answer is not shown', async () => {
    const asked = held(backend, 'GET /checkouts/chk_1');
    nextCheckout(backend);
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    const events = record(el);
    const readBack = await asked;
    const ready = oneEvent(el, 'payment-ready');
    el.checkoutId = 'chk_2';
    await ready;
    readBack({ status: 200, body: { ...backend.checkout, status: 'PAID' } });
    await el.updateComplete;
    expect(events).to.deep.equal(['payment-ready']);
    expect($(el, 'button[type=submit]').textContent?.trim()).to.equal('Pay €25.00');
  });

  for (const [name, reply] of [
    ['answered', (b: FakeBackend) => b.retry()],
    ['refused', () => errorReply(502, 'PROVIDER_ERROR', 'The provider failed')],
  ] as const) {
    it(`removed while "Try another card" is out (${name}): loads nothing, tells nothing, put back offers it again`, async () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
      const events = record(el);
      const asked = held(backend, 'POST /checkouts/chk_1/retry');
      const address = location.href;
      $(el, 'button[part~=retry]').click();
      const answer = await asked;
      const parent = el.parentElement as HTMLElement;
      el.remove();
      const calls = backend.calls.length;
      answer(reply(backend));
      // Before, the next checkout loaded off the page (payment-ready), or payment-error fired.
      await until('the answer handled', async () => {
        await el.updateComplete;
        return !el.shadowRoot?.querySelector('button[part~=retry][aria-disabled=true]');
      });
      await el.updateComplete;
      expect(backend.calls.length).to.equal(calls);
      expect(events).to.deep.equal([]);
      expect(location.href).to.equal(address);
      parent.append(el);
      await el.updateComplete;
      expect(text(el)).to.include('Payment failed');
      expect($(el, 'button[part~=retry]').textContent?.trim()).to.equal('Try another card');
    });
  }
});
