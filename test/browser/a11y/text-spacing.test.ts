// WCAG 1.4.12 and 1.4.10: a shopper's text spacing (letters 0.12em, words 0.16em, lines 1.5),
// which a page's style sheet or a reader's extension sets on the page and the widget inherits,
// in a widget as narrow as a 320 px screen gives it.
import { expect } from '@open-wc/testing';
import { FakeBackend, widget } from '../widget/fake-backend.ts';

describe('text spacing in a narrow widget', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
    backend.methods = ['card', 'ideal', 'bancontact'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
  });
  afterEach(() => backend.restore());

  it('keeps every radio and checkbox whole when a name is wider than its box', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" save-card');
    el.style.cssText =
      'width: 290px; letter-spacing: 0.12em; word-spacing: 0.16em; line-height: 1.5';
    await el.updateComplete;
    const boxes = [...(el.shadowRoot?.querySelectorAll('.choice input') ?? [])];
    const widths = boxes.map((box) => Math.round(box.getBoundingClientRect().width));
    // Card, iDEAL, Bancontact and "save this card": "Bancontact" spaced out is wider than its
    // column, and its radio was squeezed to a dot (Chromium) or to nothing (Firefox).
    expect(widths).to.have.length(4);
    expect(widths[0]).to.be.greaterThan(8);
    expect(widths).to.deep.equal(Array(4).fill(widths[0]));
  });
});
