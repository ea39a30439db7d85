// While the checkout loads, the widget shows the form it will most likely show,
// as an inert placeholder of exactly that size, so the page around it does not
// move when the real form replaces it. Checked in every engine: the sizes come
// from each engine's own layout.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { describeViolations, runAxe } from '../a11y/axe.ts';
import { $, declinedThenRetried, FakeBackend, type Reply, widget } from './fake-backend.ts';

/**
 * Where each of the widget's boxes is, relative to the widget, named by what it
 * is (a second box of the same kind gets "#2").
 */
function boxes(el: PaymentWidget): Record<string, string> {
  const origin = el.getBoundingClientRect();
  const found: Record<string, string> = {};
  const selector = 'fieldset, .field, .row, [part~=save-card], button[type=submit], form';
  for (const node of el.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? []) {
    const r = node.getBoundingClientRect();
    const kind = `${node.localName} ${node.getAttribute('part') ?? node.className}`;
    let key = kind;
    for (let n = 2; key in found; n++) key = `${kind} #${n}`;
    found[key] =
      `${(r.x - origin.x).toFixed(1)},${(r.y - origin.y).toFixed(1)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
  }
  return found;
}

describe('payment-widget: the placeholder while loading', () => {
  let backend: FakeBackend;
  /** Lets the held GET /checkouts/chk_1 answer. */
  let release: () => void;

  beforeEach(() => {
    backend = new FakeBackend();
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    backend.overrides.set('GET /checkouts/chk_1', async (): Promise<Reply> => {
      await held;
      return { status: 200, body: backend.checkout };
    });
  });
  afterEach(() => {
    release();
    backend.restore();
  });

  /** The widget while its checkout is held back, then ready; the boxes of each. */
  async function loadingThenReady(attributes: string) {
    const el = await widget(backend, `checkout-id="chk_1" ${attributes}`, { waitFor: 'none' });
    await el.updateComplete;
    const loading = { height: el.getBoundingClientRect().height, boxes: boxes(el) };
    const ready = oneEvent(el, 'payment-ready');
    release();
    await ready;
    await el.updateComplete;
    return { el, loading, ready: { height: el.getBoundingClientRect().height, boxes: boxes(el) } };
  }

  const CASES: { name: string; attributes: string; methods?: string[] }[] = [
    { name: 'the card form', attributes: '' },
    {
      name: 'zip, email and installments',
      attributes: 'show-zip-code show-email show-installments',
    },
    { name: 'a saved-card offer', attributes: 'customer-id="c_1" save-card' },
    { name: 'no button', attributes: 'no-submit-button' },
    {
      name: 'three named methods, 320 px wide',
      attributes: 'payment-methods="card ideal bancontact" style="width: 320px"',
      methods: ['card', 'ideal', 'bancontact'],
    },
    {
      name: 'three named methods, 600 px wide',
      attributes: 'payment-methods="card ideal bancontact" style="width: 600px"',
      methods: ['card', 'ideal', 'bancontact'],
    },
    {
      name: 'boleto alone, in Portuguese',
      attributes: 'payment-methods="boleto" locale="pt-BR"',
      methods: ['card', 'boleto'],
    },
    { name: 'German words', attributes: 'locale="de-DE" show-email' },
  ];

  for (const { name, attributes, methods } of CASES) {
    it(`is the size of the form, every box in place: ${name}`, async () => {
      if (methods) backend.methods = methods;
      // A bank's page returns to the checkout's redirect_url: banks are offered only with one.
      backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
      const { loading, ready } = await loadingThenReady(attributes);
      expect(ready.height).to.be.greaterThan(100);
      expect(loading.height).to.equal(ready.height);
      expect(loading.boxes).to.deep.equal(ready.boxes);
    });
  }

  // The host says it is busy through ElementInternals, which only the accessibility tree
  // shows (test/e2e/a11y.spec.ts reads it there): never as an attribute on the host.
  it('is inert and hidden from assistive technology; the host keeps the page’s attributes', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    await el.updateComplete;
    const form = $(el, 'form');
    expect(el.hasAttribute('aria-busy')).to.equal(false);
    expect(form.inert).to.equal(true);
    expect(form.getAttribute('aria-hidden')).to.equal('true');
    // What a screen reader reads meanwhile.
    expect($(el, '[part~=loading]').textContent?.trim()).to.equal('Loading payment form…');
    // Nothing in it takes focus: the shopper cannot type into a form not yet there.
    el.focus();
    expect(el.shadowRoot?.activeElement ?? null).to.equal(null);
    const results = await runAxe(el);
    expect(describeViolations(results), 'loading').to.deep.equal([]);

    const ready = oneEvent(el, 'payment-ready');
    release();
    await ready;
    await el.updateComplete;
    expect(el.hasAttribute('aria-busy')).to.equal(false);
    expect(form.inert).to.equal(false);
    expect(form.hasAttribute('aria-hidden')).to.equal(false);
    expect(el.shadowRoot?.querySelector('[part~=loading]')).to.equal(null);
    el.focus();
    expect(el.shadowRoot?.activeElement?.id).to.equal('number');
  });

  it('keeps its room when a saved card needs less, until the shopper chooses', async () => {
    backend.instruments = [
      { token: 'tok_1', active: true, card: { last_4_digits: '4242', type: 'VISA' } },
    ];
    const { el, loading, ready } = await loadingThenReady('customer-id="c_1" save-card');
    expect(el.shadowRoot?.querySelector<HTMLInputElement>('input[name=saved]')?.checked).to.equal(
      true,
    );
    expect(el.shadowRoot?.querySelector('#number')).to.equal(null);
    // Nothing under the widget moves, and its button stays where it was drawn.
    expect(ready.height).to.equal(loading.height);
    const button = 'button button';
    expect(ready.boxes[button]).to.equal(loading.boxes[button]);

    // "Use a new card": the card fields, in the room kept for them and more.
    el.shadowRoot?.querySelector<HTMLInputElement>('input[name=saved][value=""]')?.click();
    await el.updateComplete;
    const newCard = el.getBoundingClientRect().height;
    expect(newCard).to.be.greaterThan(loading.height);
    // Back to the saved card: the room was let go with the first choice.
    el.shadowRoot?.querySelector<HTMLInputElement>('input[name=saved][value=tok_1]')?.click();
    await el.updateComplete;
    expect(el.getBoundingClientRect().height).to.be.lessThan(loading.height);
  });

  it('lets its room go after an outcome: "Try another card" puts Pay right under the card', async () => {
    backend.methods = ['card', 'ideal', 'bancontact'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const { el } = await loadingThenReady(
      'payment-methods="card ideal bancontact" style="width: 320px"',
    );
    // From the last field to the button: the form's gap, when the form fits its fields.
    const underName = () =>
      $(el, 'button[part~=button]').getBoundingClientRect().top -
      $(el, '#name').getBoundingClientRect().bottom;
    const first = underName();
    expect((await declinedThenRetried(el)).paymentMethods).to.deep.equal(['card']);
    // A card alone: no methods' rows, and no empty room where they were (it was 2 rows'
    // worth); within a pixel's rounding (Firefox places the boxes at fractions of a pixel).
    expect(el.shadowRoot?.querySelector('input[name=method]')).to.equal(null);
    expect(underName()).to.be.closeTo(first, 0.5);
  });

  it('shows the placeholder again, at its own size, when another checkout loads', async () => {
    backend.instruments = [
      { token: 'tok_1', active: true, card: { last_4_digits: '4242', type: 'VISA' } },
    ];
    const { el, loading } = await loadingThenReady('customer-id="c_1"');
    backend.overrides.delete('GET /checkouts/chk_1');
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    backend.checkout = { ...backend.checkout, id: 'chk_2' };
    backend.overrides.set('GET /checkouts/chk_2', async (): Promise<Reply> => {
      await held;
      return { status: 200, body: backend.checkout };
    });
    el.checkoutId = 'chk_2';
    await el.updateComplete;
    expect($(el, '[part~=loading]').textContent?.trim()).to.equal('Loading payment form…');
    expect(el.getBoundingClientRect().height).to.equal(loading.height);
    expect($(el, 'form').style.minHeight).to.equal('');
    const ready = oneEvent(el, 'payment-ready');
    answer();
    await ready;
  });
});
