// The shopper's journey beyond the happy path: a checkout already settled when the page
// shows it (a reload, the bank's app, another tab) shows its outcome and never a form; a
// failure says why and offers another card on the basket's next checkout, keeping what the
// shopper typed besides the card; and a page seen again reads its checkout back.

import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentCheckoutDetail } from '../../../src/index.ts';
import {
  $,
  declinedThenRetried,
  FakeBackend,
  fillCard,
  paste,
  text,
  widget,
} from './fake-backend.ts';

const settled = (el: HTMLElement) => el.shadowRoot?.querySelector('#number') === null;

describe('payment-widget: the truth on return', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('a checkout paid before the page showed it: "Payment successful", resumed, no form', async () => {
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const success = new Promise<PaymentCheckoutDetail>((resolve) =>
      document.addEventListener('payment-success', (e) => resolve(e.detail), { once: true }),
    );
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-success' });
    expect((await success).resumed).to.equal(true);
    expect(text(el)).to.include('Payment successful');
    expect(settled(el)).to.equal(true);
    expect(backend.puts()).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('a checkout that failed before: "Payment failed", why, and another card', async () => {
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    expect(text(el)).to.include('Payment failed');
    expect(text(el)).to.include('Your card was declined');
    expect($(el, 'button[part~=retry]').textContent?.trim()).to.equal('Try another card');
    await expect(el).to.be.accessible();
  });

  it('on a result page naming no methods, "Try another card" offers a card, not every method', async () => {
    backend.checkout = {
      ...backend.checkout,
      status: 'FAILED',
      redirect_url: 'https://shop.example/r',
    };
    backend.methods = ['card', 'ideal', 'bancontact'];
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    const ready = oneEvent(el, 'payment-ready');
    $(el, 'button[part~=retry]').click();
    expect((await ready).detail.paymentMethods).to.deep.equal(['card']);
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('input[name=method]')).to.equal(null);
    expect($(el, '#number')).to.be.instanceOf(HTMLInputElement);
    // A checkout set by the page afterwards offers what the page names again.
    const again = oneEvent(el, 'payment-ready');
    backend.checkout = { ...backend.checkout, id: 'chk_3', status: 'PENDING' };
    el.checkoutId = 'chk_3';
    expect((await again).detail.paymentMethods).to.deep.equal(['card', 'ideal', 'bancontact']);
  });

  /**
   * A failed checkout `chk_1` on a page whose address names `checkoutId`, a router's
   * `state` on its history entry: "Try another card" pressed, the basket's next form shown.
   * Returns where the page is then and its entry's state; the page's address is put back.
   */
  async function retriedAt(checkoutId: string, state: unknown) {
    const page = location.href;
    const url = new URL(page);
    url.searchParams.set('checkout_id', checkoutId);
    history.replaceState(state, '', url);
    const entries = history.length;
    try {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
      const ready = oneEvent(el, 'payment-ready');
      $(el, 'button[part~=retry]').click();
      await ready;
      expect(el.checkoutId).to.equal('chk_2');
      expect(history.length, 'no new history entry').to.equal(entries);
      const now = new URL(location.href);
      return { checkoutId: now.searchParams.get('checkout_id'), state: history.state };
    } finally {
      history.replaceState(null, '', page);
    }
  }

  it('a result page’s address names the basket’s next checkout once "Try another card" made it', async () => {
    // A reload asks for chk_2; a router's state on the history entry stays.
    const state = { router: 'kept' };
    expect(await retriedAt('chk_1', state)).to.deep.equal({ checkoutId: 'chk_2', state });
  });

  it('a page whose address names another checkout (the server named this one) keeps it', async () => {
    expect(await retriedAt('chk_9', null)).to.deep.equal({ checkoutId: 'chk_9', state: null });
  });

  it('a checkout deactivated because the basket changed: no longer valid, nothing to retry', async () => {
    backend.checkout = { ...backend.checkout, status: 'EXPIRED' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    expect(text(el)).to.include('This payment is no longer valid');
    expect(el.shadowRoot?.querySelector('button[part~=retry]')).to.equal(null);
  });

  it('seen again (visibilitychange) after the bank’s app paid it: shows it paid, resumed', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const success = oneEvent(el, 'payment-success');
    document.dispatchEvent(new Event('visibilitychange'));
    expect((await success).detail.resumed).to.equal(true);
    await el.updateComplete;
    expect(settled(el)).to.equal(true);
  });

  it('back from the back-forward cache (pageshow) after the basket changed: no longer valid', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    backend.checkout = { ...backend.checkout, status: 'EXPIRED' };
    const failure = oneEvent(el, 'payment-failure');
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await failure;
    await el.updateComplete;
    expect(text(el)).to.include('This payment is no longer valid');
  });

  it('a page load’s own pageshow reads nothing back', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const reads = backend.calls.length;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    await el.updateComplete;
    expect(backend.calls.length).to.equal(reads);
  });
});

describe('payment-widget: another card after a decline', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
    // What an earlier test's attempt left for this tab.
    sessionStorage.clear();
  });
  afterEach(() => backend.restore());

  it('after a bank method failed (back from its page): "Try another way to pay", no card blamed', async () => {
    // What the widget kept for this tab when it sent the shopper to the bank's page.
    sessionStorage.setItem('payment-widget:step:chk_1', 'apm-redirect');
    // A bank's page returns to the checkout's redirect_url.
    backend.checkout = {
      ...backend.checkout,
      status: 'FAILED',
      redirect_url: 'https://shop.example/r',
    };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    expect(text(el)).to.include('Payment failed');
    expect(text(el)).not.to.include('Your card was declined');
    expect($(el, 'button[part~=retry]').textContent?.trim()).to.equal('Try another way to pay');
    await expect(el).to.be.accessible();
    // Another way to pay: every method, not a card alone.
    backend.methods = ['card', 'ideal', 'bancontact'];
    const ready = oneEvent(el, 'payment-ready');
    $(el, 'button[part~=retry]').click();
    expect((await ready).detail.paymentMethods).to.deep.equal(['card', 'ideal', 'bancontact']);
  });

  it('says the card was declined, then pays the basket’s next checkout; name and email stay', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1" show-email');
    await fillCard(el);
    paste($(el, '#email'), 'ada@example.com');
    const failure = oneEvent(el, 'payment-failure');
    $(el, 'button[part~=button]').click();
    expect((await failure).detail.resumed).to.equal(undefined);
    await el.updateComplete;
    expect(text(el)).to.include('Your card was declined');
    await expect(el).to.be.accessible();

    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return { status: 200, body: backend.checkout };
    };
    const ready = oneEvent(el, 'payment-ready');
    $(el, 'button[part~=retry]').click();
    await ready;
    await el.updateComplete;
    expect(el.checkoutId).to.equal('chk_2');
    expect($(el, '#name').value).to.equal('Ada Lovelace');
    expect($(el, '#email').value).to.equal('ada@example.com');
    expect($(el, '#number').value, 'the card is never kept').to.equal('');

    await fillCard(el, { number: '5200000000000007' });
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
    const calls = backend.calls.map((c) => `${c.method} ${c.path}`);
    expect(calls.filter((c) => c === 'POST /checkouts/chk_1/retry')).to.have.length(1);
    expect(backend.puts().map((c) => c.path)).to.deep.equal([
      '/checkouts/chk_1',
      '/checkouts/chk_2',
    ]);
  });

  it('the basket’s next form is fresh: no error shows before the shopper types', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Pay pressed once with nothing filled in: every field was marked.
    $(el, 'button[part~=button]').click();
    await el.updateComplete;
    await declinedThenRetried(el);
    paste($(el, '#number'), '4');
    await el.updateComplete;
    const invalid = [...(el.shadowRoot?.querySelectorAll('[aria-invalid="true"]') ?? [])];
    expect(invalid.map((input) => input.id)).to.deep.equal([]);
  });

  it('“Try another card” pressed twice asks for one next checkout', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const failure = oneEvent(el, 'payment-failure');
    $(el, 'button[part~=button]').click();
    await failure;
    await el.updateComplete;
    const again = $(el, 'button[part~=retry]');
    const ready = oneEvent(el, 'payment-ready');
    again.click();
    again.click();
    await ready;
    const retries = backend.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/retry'));
    expect(retries).to.have.length(1);
  });

  it('after a payment, the next checkout’s form keeps nothing the shopper typed', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
    // The page's next order, in the same element (a single-page shop, a shared device).
    backend.checkout = { ...backend.checkout, id: 'chk_9', status: 'PENDING' };
    const ready = oneEvent(el, 'payment-ready');
    el.checkoutId = 'chk_9';
    await ready;
    await el.updateComplete;
    expect($(el, '#name').value).to.equal('');
  });

  it('keeps a keyboard shopper’s focus: on "Try another card" after the decline, then on the new form', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const pay = $(el, 'button[part~=button]');
    pay.focus();
    const failure = oneEvent(el, 'payment-failure');
    pay.click();
    await failure;
    await el.updateComplete;
    const focused = () => el.shadowRoot?.activeElement as HTMLElement | null;
    expect(focused()?.textContent?.trim()).to.equal('Try another card');

    const ready = oneEvent(el, 'payment-ready');
    focused()?.click();
    await ready;
    await el.updateComplete;
    expect(focused()?.id).to.equal('number');
  });

  it('leaves focus where the shopper moved it while the payment ran', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    const elsewhere = document.createElement('input');
    elsewhere.setAttribute('aria-label', 'Gift note');
    document.body.append(elsewhere);
    try {
      await fillCard(el);
      const pay = $(el, 'button[part~=button]');
      pay.focus();
      const failure = oneEvent(el, 'payment-failure');
      pay.click();
      elsewhere.focus();
      await failure;
      await el.updateComplete;
      expect(document.activeElement).to.equal(elsewhere);
    } finally {
      elsewhere.remove();
    }
  });

  it('after a 3DS challenge that failed: "Authentication failed"', async () => {
    const challenge = new URL('/test/browser/next-step/fixtures/challenge.html', location.href)
      .href;
    backend.process = () => ({
      status: 202,
      body: { next_step: { url: challenge, method: 'GET', payload: { MD: 'md-1' } } },
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const shown = oneEvent(el, 'payment-challenge');
    $(el, 'button[part~=button]').click();
    await shown;
    // The issuer said no; the page, seen again, reads the checkout back.
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const failure = oneEvent(el, 'payment-failure');
    document.dispatchEvent(new Event('visibilitychange'));
    await failure;
    await el.updateComplete;
    expect(text(el)).to.include('Authentication failed');
    expect($(el, 'button[part~=retry]').textContent?.trim()).to.equal('Try another card');
  });
});
