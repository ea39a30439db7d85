// A page rendered by a server (Next.js, Nuxt): the element upgrades before its framework has
// hydrated the page, so its `order` (or `checkout-id`) and listeners come a moment later,
// and hydration compares the host's attributes with what the server sent.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { MISSING_AFTER_MS } from '../../../src/widget/arrival.ts';
import type { PaymentWidget } from '../../../src/widget/payment-widget.ts';
import { $, FakeBackend, fillCard, text } from './fake-backend.ts';

/** A task later: after whatever the element's first update started. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The element as a server rendered it: in the page before anything sets its properties. */
async function serverRendered(attributes: string): Promise<PaymentWidget> {
  const template = document.createElement('template');
  template.innerHTML = `<payment-widget locale="en-GB" ${attributes}></payment-widget>`;
  const el = await fixture<PaymentWidget>(html`${template.content.firstElementChild}`);
  await el.updateComplete;
  return el;
}

/** Every attribute written on `el` from now on, as `name=value`. */
function watchAttributes(el: HTMLElement): string[] {
  const written: string[] = [];
  new MutationObserver((records) => {
    for (const record of records) {
      written.push(`${record.attributeName}=${el.getAttribute(record.attributeName ?? '')}`);
    }
  }).observe(el, { attributes: true });
  return written;
}

describe('payment-widget: a checkout that arrives after the element', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend().install();
  });
  afterEach(() => backend.restore());

  it('waits for an order set after it upgraded, then creates the checkout from it', async () => {
    const errors: Event[] = [];
    document.addEventListener('payment-error', (e) => errors.push(e));
    const el = await serverRendered('');
    await nextTask();
    // Loading, not failed: no error on screen, no request yet.
    expect($(el, '[part~=loading]').textContent?.trim()).to.equal('Loading payment form…');
    expect(text(el)).not.to.include('missing its checkout');
    expect(backend.calls).to.deep.equal([]);

    const ready = oneEvent(el, 'payment-ready');
    el.order = { sku: 'mug' };
    await ready;
    expect(backend.calls.map((c) => [c.method, c.path, c.body])).to.deep.equal([
      ['POST', '/checkouts', { order: { sku: 'mug' } }],
      ['GET', '/payment-methods', undefined],
    ]);
    expect(errors).to.deep.equal([]);
  });

  it('hears, as a framework hydrating the page sets them, a checkout already settled', async () => {
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const el = await serverRendered('');
    await nextTask();
    // What payment-widget/react does after hydration: properties and listeners, in one task.
    const heard: CustomEvent[] = [];
    el.endpoint = '/payments';
    el.checkoutId = 'chk_1';
    el.addEventListener('payment-success', (e) => heard.push(e as CustomEvent));
    await oneEvent(el, 'payment-success');
    expect(heard.map((e) => e.detail.resumed)).to.deep.equal([true]);
    expect(backend.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal([
      'GET /checkouts/chk_1',
    ]);
  });

  it('writes no attribute on its host, from loading to paid', async () => {
    const template = document.createElement('template');
    template.innerHTML = '<payment-widget locale="en-GB" checkout-id="chk_1"></payment-widget>';
    const node = template.content.firstElementChild as PaymentWidget;
    const written = watchAttributes(node);
    const ready = oneEvent(node, 'payment-ready');
    const el = await fixture<PaymentWidget>(html`${node}`);
    await ready;
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    await el.updateComplete;
    expect(written).to.deep.equal([]);
    expect(el.getAttributeNames().sort()).to.deep.equal(['checkout-id', 'locale']);
  });

  it('says the checkout is missing once the page has loaded and nothing came', async function () {
    this.timeout(MISSING_AFTER_MS * 4);
    const el = await serverRendered('');
    const error = await oneEvent(el, 'payment-error');
    expect(error.detail).to.deep.include({ code: 'MISSING_CHECKOUT', retryable: false });
    expect(text(el)).to.include('missing its checkout');
    // Set late all the same: it loads.
    const ready = oneEvent(el, 'payment-ready');
    el.checkoutId = 'chk_1';
    await ready;
    expect(text(el)).to.include('Pay €10.00');
  });
});
