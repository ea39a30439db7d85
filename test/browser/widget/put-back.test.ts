// A widget taken off the page and put back: a single-page app moving it to another container,
// a modal closed and opened again, a framework re-parenting it or moving it in a keyed list.
// Moved (off and back within one task), it is as if untouched: nothing loads again, nothing
// is told again, and what the shopper typed stays. Put back later, it shows its checkout as
// it is now, and tells an outcome only if the page has not heard it from this element.
// Off the page past the task, its load stops; put back, it loads afresh.
import { expect, oneEvent } from '@open-wc/testing';
import { until } from '../../shared/until.ts';
import {
  $,
  ACS,
  challenged,
  FakeBackend,
  fillCard,
  held,
  record,
  taskOver,
  text,
  widget,
} from './fake-backend.ts';

/** The checkout reads the widget asked for. */
const reads = (backend: FakeBackend) =>
  backend.calls.filter((c) => c.method === 'GET' && c.path === '/checkouts/chk_1').length;

describe('payment-widget: taken off the page and put back', () => {
  let backend: FakeBackend;
  let elsewhere: HTMLElement;
  beforeEach(() => {
    backend = new FakeBackend();
    elsewhere = document.createElement('div');
    document.body.append(elsewhere);
  });
  afterEach(() => {
    elsewhere.remove();
    backend.restore();
  });

  it('moved within a task while it loads and while its form shows: one load, the number kept', async () => {
    const asked = held(backend, 'GET /checkouts/chk_1');
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    const events = record(el);
    const parent = el.parentElement as HTMLElement;
    const answer = await asked;
    // Before, the move stopped the load and started it again: a second GET, the first aborted.
    elsewhere.append(el);
    const ready = oneEvent(el, 'payment-ready');
    answer({ status: 200, body: backend.checkout });
    await ready;
    await el.updateComplete;
    expect(backend.aborted).to.deep.equal([]);
    expect(reads(backend)).to.equal(1);

    await fillCard(el);
    const typed = $(el, '#number').value;
    const calls = backend.calls.length;
    parent.append(el);
    await taskOver();
    await el.updateComplete;
    expect(backend.calls.length).to.equal(calls);
    expect($(el, '#number').value).to.equal(typed);
    expect(events).to.deep.equal(['payment-ready']);
    // Still the form it was: it pays what was typed.
    const success = oneEvent(el, 'payment-success');
    await el.submit();
    expect((await success).detail.resumed).to.equal(undefined);
    expect(backend.puts()[0]?.body).to.have.nested.property('card.number', '4200000000000091');
  });

  it('moved within a task while a challenge shows: the challenge shows again in its frame', async () => {
    const { el, events } = await challenged(backend);
    const shown = () => {
      const frame = el.shadowRoot?.querySelector('iframe');
      return frame?.contentDocument?.location.href.startsWith(ACS) ?? false;
    };
    await until('the challenge in its frame', shown);
    const again = oneEvent(el, 'payment-challenge');
    // The browser drops a frame's page as its element leaves the document: moved, the frame
    // was blank (before: the form instead, payable again, the challenge left open).
    elsewhere.append(el);
    await again;
    await until('the challenge in its frame again', shown);
    expect(events).to.deep.equal(['payment-submit', 'payment-challenge', 'payment-challenge']);
    expect(backend.puts()).to.have.length(1);
  });

  it('typed, then put back after it left: a fresh form, as the checkout is now', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const events = record(el);
    await fillCard(el);
    expect(text(el)).to.include('VISA');
    const parent = el.parentElement as HTMLElement;
    el.remove();
    await taskOver();
    // Another amount meanwhile (the basket changed): the form says it.
    backend.checkout = { ...backend.checkout, amount: 25 };
    const ready = oneEvent(el, 'payment-ready');
    parent.append(el);
    await ready;
    await el.updateComplete;
    // Before, the form stayed as it was: the old amount, the card typed off the page.
    expect($(el, 'button[type=submit]').textContent?.trim()).to.equal('Pay €25.00');
    for (const field of ['number', 'expiry', 'cvv', 'name']) {
      expect($(el, `#${field}`).value, field).to.equal('');
    }
    expect(text(el)).not.to.include('VISA');
    expect(events).to.deep.equal(['payment-ready']);
  });

  it('paid while it was off the page, put back: payment-success once, whatever comes after', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const events = record(el);
    const parent = el.parentElement as HTMLElement;
    el.remove();
    await taskOver();
    // Paid elsewhere meanwhile (another tab, the bank's app).
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const success = oneEvent(el, 'payment-success');
    parent.append(el);
    // Before, it showed the form it had, still payable, and the page heard nothing.
    expect((await success).detail.resumed).to.equal(true);
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');

    const calls = backend.calls.length;
    el.remove();
    await taskOver();
    parent.append(el);
    await taskOver();
    elsewhere.append(el);
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    expect(backend.calls.length).to.equal(calls);
    expect(events).to.deep.equal(['payment-success']);
  });

  it('failed, put back while "Try another card" is out: payment-failure is not told again', async () => {
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    const events = record(el);
    const asked = held(backend, 'POST /checkouts/chk_1/retry');
    $(el, 'button[part~=retry]').click();
    const answer = await asked;
    const parent = el.parentElement as HTMLElement;
    el.remove();
    await taskOver();
    const before = reads(backend);
    parent.append(el);
    // Put back, it reads its checkout as it is now: still failed, which the page has heard.
    await el.updateComplete;
    expect(reads(backend)).to.equal(before + 1);
    const ready = oneEvent(el, 'payment-ready');
    answer(backend.retry());
    await ready;
    await el.updateComplete;
    // Before, the page heard payment-failure a second time (resumed: true) before the form.
    expect(events).to.deep.equal(['payment-ready']);
    expect(el.checkoutId).to.equal('chk_2');
  });

  it('removed while it loads: the load stops and tells nothing; put back, it loads afresh', async () => {
    const asked = held(backend, 'GET /checkouts/chk_1');
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    const events = record(el);
    const answer = await asked;
    const parent = el.parentElement as HTMLElement;
    el.remove();
    await taskOver();
    expect(backend.aborted).to.deep.equal(['GET /checkouts/chk_1']);
    // The held answer comes after all: the aborted call is not read.
    answer({ status: 200, body: backend.checkout });
    await el.updateComplete;
    expect(backend.calls.length).to.equal(1);
    expect(events).to.deep.equal([]);

    const ready = oneEvent(el, 'payment-ready');
    parent.append(el);
    await ready;
    await el.updateComplete;
    expect(reads(backend)).to.equal(2);
    expect(text(el)).not.to.include('Loading');
    expect($(el, '#number')).to.exist;
    expect(events).to.deep.equal(['payment-ready']);
  });
});
