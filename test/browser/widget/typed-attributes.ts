// What the element reads from a merchant's attributes, checked alike on the sources'
// element (./properties.test.ts) and on the built one (./built-lit.test.ts), whose Lit is
// built without some of its features (scripts/lit-unused.ts).
import { expect } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';

/** A boolean, a number and JSON text among them, as a merchant writes them. */
export const TYPED_ATTRIBUTES = `checkout-id="chk_1" show-installments max-installments="3" order='{"sku":"tee"}'`;

/**
 * `el`, rendered with TYPED_ATTRIBUTES, read them as typed properties; a number attribute
 * taken away is null, and a boolean one false again.
 */
export async function expectTypedAttributes(el: PaymentWidget): Promise<void> {
  expect(el.checkoutId).to.equal('chk_1');
  expect(el.showInstallments).to.equal(true);
  expect(el.showZipCode).to.equal(false);
  expect(el.maxInstallments).to.equal(3);
  expect(el.order).to.deep.equal({ sku: 'tee' });
  expect(el.shadowRoot!.querySelectorAll('#installments option')).to.have.length(3);

  // A number attribute taken away is no number (the widget then offers its 12), as Lit whole
  // reads it: nothing brings back a default.
  el.removeAttribute('max-installments');
  await el.updateComplete;
  expect(el.maxInstallments).to.equal(null);
  expect(el.shadowRoot!.querySelectorAll('#installments option')).to.have.length(12);

  el.removeAttribute('show-installments');
  await el.updateComplete;
  expect(el.showInstallments).to.equal(false);
  expect(el.shadowRoot!.querySelector('#installments')).to.equal(null);
}
