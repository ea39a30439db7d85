// The self-contained bundles carry their own Lit without its decorators, its attribute
// reflection, its JSON attributes and its kept defaults (scripts/lit-unused.ts), which only
// the built files show: the other tests here
// run the sources, with Lit whole. So this takes the element from the built ES module
// (dist/payment-widget.js, as `npm run build` wrote it; the script-tag build is the same
// code) and checks what its properties and attributes do, as ./properties.test.ts does for the
// sources: attributes reach typed properties, the element's own `order` accessor still reads
// JSON text, and nothing is written back to an attribute. Its parts do not load here (this test
// server rewrites every .js file it serves, so no part matches its hash): the form stands
// without them, as on a network that lost them. The built widget's payments in the three
// engines are test/engines/'s.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { $, FakeBackend } from './fake-backend.ts';
import { expectTypedAttributes, TYPED_ATTRIBUTES } from './typed-attributes.ts';

/** The built module, beside which its parts load (dist/parts/, checked by their hashes). */
const BUILT = '/dist/payment-widget.js';
/** The sources define <payment-widget> (./fake-backend.ts): the built class gets a tag of its own. */
const TAG = 'built-payment-widget';

async function builtWidget(backend: FakeBackend, attributes: string): Promise<PaymentWidget> {
  if (!customElements.get(TAG)) {
    const built = (await import(BUILT)) as { PaymentWidget: typeof PaymentWidget };
    customElements.define(TAG, class extends built.PaymentWidget {});
  }
  backend.install();
  const template = document.createElement('template');
  template.innerHTML = `<${TAG} locale="en-GB" ${attributes}></${TAG}>`;
  const node = template.content.firstElementChild as PaymentWidget;
  const ready = oneEvent(node, 'payment-ready');
  const el = await fixture<PaymentWidget>(html`${node}`);
  await ready;
  await el.updateComplete;
  return el;
}

describe('payment-widget as built: its properties and attributes', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('reads boolean, number and JSON attributes into typed properties, and writes none back', async () => {
    const el = await builtWidget(backend, TYPED_ATTRIBUTES);
    await expectTypedAttributes(el);
    // Set as properties, they draw, and no attribute of the page's changes.
    el.showZipCode = true;
    el.showInstallments = true;
    el.maxInstallments = 2;
    await el.updateComplete;
    expect($(el, '#zip')).to.exist;
    expect(el.shadowRoot!.querySelectorAll('#installments option')).to.have.length(2);
    expect(el.getAttributeNames().sort()).to.deep.equal(['checkout-id', 'locale', 'order']);
  });

  it("reads `order` set as JSON text through the element's own accessor", async () => {
    const el = await builtWidget(backend, `order='{"sku":"tee"}'`);
    expect(backend.calls[0]).to.deep.include({ method: 'POST', path: '/checkouts' });
    expect(backend.calls[0]?.body).to.deep.equal({ order: { sku: 'tee' } });
    el.order = '{"sku":"mug"}';
    expect(el.order).to.deep.equal({ sku: 'mug' });
    // Not an equal order: the widget asks for the checkout of the new one.
    const ready = oneEvent(el, 'payment-ready');
    await el.updateComplete;
    await ready;
    const posts = backend.calls.filter((c) => c.method === 'POST' && c.path === '/checkouts');
    expect(posts.map((c) => c.body)).to.deep.equal([
      { order: { sku: 'tee' } },
      { order: { sku: 'mug' } },
    ]);
  });
});
