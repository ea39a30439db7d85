// The widget where constructable stylesheets are missing: styled all the same
// (Lit writes <style> elements), accessible, and a card payment goes through.
import './no-constructable-stylesheets.ts';
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { $, FakeBackend, fillCard, text, widget } from '../widget/fake-backend.ts';

describe('payment-widget without constructable stylesheets', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => {
    backend.restore();
    delete window.litNonce;
  });

  it('runs on a page that really lacks them', () => {
    expect('adoptedStyleSheets' in Document.prototype).to.equal(false);
    expect('adoptedStyleSheets' in ShadowRoot.prototype).to.equal(false);
    expect('replaceSync' in CSSStyleSheet.prototype).to.equal(false);
    expect(() => new CSSStyleSheet()).to.throw(TypeError);
  });

  it('is styled as usual, through <style> elements in its shadow root', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    expect(el.shadowRoot!.querySelectorAll('style').length).to.be.greaterThan(0);
    expect(getComputedStyle(el).display).to.equal('block');
    const button = getComputedStyle($(el, 'button[part=button]'));
    const input = getComputedStyle($(el, '#number'));
    const label = getComputedStyle($(el, 'label[for=number]'));
    // The defaults of styles.ts: the accent colour on the button, rounded
    // fields, bold labels; the browser's own styles have none of these.
    expect(button.borderTopLeftRadius).to.equal('6px');
    expect(input.borderTopLeftRadius).to.equal('6px');
    expect(label.fontWeight).to.equal('600');
    // #0b57d0 in light mode, #a8c7fa in dark.
    expect(['rgb(11, 87, 208)', 'rgb(168, 199, 250)']).to.include(button.backgroundColor);
  });

  it('is accessible, and a card payment ends in "Payment successful"', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    await expect(el).to.be.accessible();
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    await el.updateComplete;
    expect(text(el)).to.include('Payment successful');
    // The pay part's styles, which arrive after the element's: the outcome's bar.
    const box = $(el, '[part=outcome]').closest('.outcome-box') as HTMLElement;
    expect(getComputedStyle(box).borderLeftStyle).to.equal('solid');
    await expect(el).to.be.accessible();
  });

  it('gives its <style> elements the nonce the page set in window.litNonce', async () => {
    window.litNonce = 'n0nce-for-styles';
    const el: PaymentWidget = await widget(backend, 'checkout-id="chk_1"');
    const nonces = [...el.shadowRoot!.querySelectorAll('style')].map((s) => s.nonce);
    expect(nonces.length).to.be.greaterThan(0);
    expect(nonces.every((n) => n === 'n0nce-for-styles')).to.equal(true);
  });
});
