import { expect } from '@open-wc/testing';
import '../../src/index.ts';

describe('payment-widget registration', () => {
  it('defines the custom element', () => {
    expect(customElements.get('payment-widget')).to.be.a('function');
  });
});
