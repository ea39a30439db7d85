// Pay pressed before the pay part has come (on a slow network it arrives after the form): the
// button says at once that the payment is under way, a second press pays nothing more, and
// the payment goes through once the part is here (./pay-part-held.ts holds it back).
import { expect, oneEvent } from '@open-wc/testing';
import { $, FakeBackend, fillCard } from './fake-backend.ts';
import { heldBeforePayPart, payPart } from './pay-part-held.ts';

describe('payment-widget: Pay pressed before its pay part has come', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(async () => {
    await payPart('release');
    backend.restore();
  });

  it('is busy at once, and pays once when the part comes', async () => {
    const { el, held } = await heldBeforePayPart(backend);
    expect(held).to.equal(1);
    await fillCard(el);
    const button = $(el, 'button[part~=button]');
    const payLabel = button.textContent?.trim();
    expect(payLabel).to.match(/^Pay /);

    const success = oneEvent(el, 'payment-success');
    button.click();
    await el.updateComplete;
    // Before, the button read "Pay …" as if nothing had happened until the part came.
    expect(button.textContent?.trim()).to.equal('Processing…');
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect($(el, 'form').getAttribute('aria-busy')).to.equal('true');
    // Pressed again while it waits: still one payment.
    button.click();
    expect(backend.puts()).to.have.length(0);

    await payPart('release');
    await success;
    expect(backend.puts()).to.have.length(1);
  });
});
