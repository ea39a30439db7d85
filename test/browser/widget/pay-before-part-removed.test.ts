// Pay pressed before the pay part has come, then the widget taken off the page (a single-page
// app's route changed, a modal closed) before it comes: nobody is looking, so nothing is paid;
// put back, it loads afresh, a fresh form to pay with (./pay-part-held.ts holds the part back).
import { expect, oneEvent } from '@open-wc/testing';
import { $, FakeBackend, fillCard } from './fake-backend.ts';
import { heldBeforePayPart, payPart } from './pay-part-held.ts';

describe('payment-widget: Pay pressed before its pay part has come, then removed', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(async () => {
    await payPart('release');
    backend.restore();
  });

  it('pays nothing off the page, and put back pays once', async () => {
    const { el } = await heldBeforePayPart(backend);
    await fillCard(el);
    const submitted: unknown[] = [];
    el.addEventListener('payment-submit', (event) => submitted.push(event.detail));
    const paying = el.submit();
    const parent = el.parentElement as HTMLElement;
    el.remove();
    await payPart('release');
    await paying;
    // Before, the part paid as it came, for a widget no longer on the page.
    expect(backend.puts()).to.have.length(0);
    expect(submitted).to.deep.equal([]);

    // Put back, it loads afresh, a fresh form (it forgot what was typed as it left): before,
    // the form showed as it was, and the page never heard payment-ready.
    const ready = oneEvent(el, 'payment-ready');
    parent.append(el);
    await ready;
    await el.updateComplete;
    expect($(el, '#number').value).to.equal('');
    expect($(el, 'button[part~=button]').getAttribute('aria-disabled')).to.equal('false');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    await el.submit();
    await success;
    expect(backend.puts()).to.have.length(1);
  });
});
