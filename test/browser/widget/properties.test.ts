// The element's reactive properties: attributes reach properties, renders are
// batched, and a page that set properties before the script defined the tag
// loses none of them.

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { PaymentWidget } from '../../../src/index.ts';
import { $, FakeBackend, widget } from './fake-backend.ts';
import { expectTypedAttributes, TYPED_ATTRIBUTES } from './typed-attributes.ts';

describe('payment-widget: reactive properties', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('reads boolean, number and JSON attributes into typed properties', async () => {
    await expectTypedAttributes(await widget(backend, TYPED_ATTRIBUTES));
  });

  it('lists only what a page may set: mount() sets any option its table names', () => {
    // Internal state (Lit's `state: true`) in the table would let mount()'s options reach it.
    const internal = Object.entries(PaymentWidget.properties)
      .filter(([, declaration]) => declaration.state)
      .map(([name]) => name);
    expect(internal).to.deep.equal([]);
  });

  it('renders once for several properties set together, and updateComplete waits for it', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Lit's render() is protected: counted through the instance, as Lit itself calls it.
    const counted = el as unknown as { render(): unknown };
    const render = counted.render.bind(el);
    let renders = 0;
    counted.render = () => {
      renders += 1;
      return render();
    };
    el.showZipCode = true;
    el.showEmail = true;
    expect(el.shadowRoot!.querySelector('#zip')).to.equal(null);
    expect(renders).to.equal(0);
    // True when no other update is pending after this one: nothing renders again behind it.
    expect(await el.updateComplete).to.equal(true);
    expect($(el, '#zip')).to.exist;
    expect($(el, '#email')).to.exist;
    expect(renders).to.equal(1);
  });

  it('keeps properties a page set before the tag was defined', async () => {
    backend.install();
    const tag = 'payment-widget-upgrade-test';
    const early = document.createElement(tag) as PaymentWidget;
    // Plain own properties until the class is defined, as on a page whose
    // framework renders before the script tag has run.
    early.checkoutId = 'chk_1';
    early.showEmail = true;
    early.locale = 'en-GB';
    const el = await fixture<PaymentWidget>(html`<div>${early}</div>`);
    const ready = oneEvent(early, 'payment-ready');
    customElements.define(tag, class extends PaymentWidget {});
    await ready;
    await early.updateComplete;
    expect(el.contains(early)).to.equal(true);
    expect(early.checkoutId).to.equal('chk_1');
    expect($(early, '#email')).to.exist;
    expect(backend.calls[0]).to.include({ method: 'GET', path: '/checkouts/chk_1' });
  });
});
