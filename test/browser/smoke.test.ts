import { expect } from '@open-wc/testing';
import * as api from '../../src/index.ts';

describe('payment-widget entry point', () => {
  it('registers <payment-widget> and exports the class and mount()', () => {
    expect(customElements.get('payment-widget')).to.equal(api.PaymentWidget);
    expect(document.createElement('payment-widget')).to.be.instanceOf(api.PaymentWidget);
    expect(api.mount).to.be.a('function');
  });
});
