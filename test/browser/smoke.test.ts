import { expect } from '@open-wc/testing';
import * as api from '../../src/index.ts';

describe('payment-widget entry point', () => {
  it('registers <payment-widget> and exports the class and mount()', () => {
    expect(customElements.get('payment-widget')).to.equal(api.PaymentWidget);
    expect(document.createElement('payment-widget')).to.be.instanceOf(api.PaymentWidget);
    // mount() does what it is for: a widget inside the element named by id, with the options
    // given, and gone again on unmount().
    const host = document.createElement('div');
    host.id = 'smoke-mount';
    document.body.append(host);
    try {
      const mounted = api.mount({ id: 'smoke-mount', locale: 'de-DE', showEmail: true });
      const el = host.querySelector('payment-widget');
      expect(el).to.be.instanceOf(api.PaymentWidget);
      expect((el as api.PaymentWidget).locale).to.equal('de-DE');
      expect((el as api.PaymentWidget).showEmail).to.equal(true);
      mounted.unmount();
      expect(host.querySelector('payment-widget')).to.equal(null);
    } finally {
      host.remove();
    }
  });
});
