// Pay pressed before the pay part has come (on a slow network it arrives after the form): the
// button says at once that the payment is under way, a second press pays nothing more, and
// the payment goes through once the part is here. The runner holds the part back
// (scripts/wtr-pay-part.mjs). Alone in its file: a page fetches the part once, so a test
// before it would have brought it already.
import { expect, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillCard, widget } from './fake-backend.ts';

/** Holds the pay part back, or lets it come; resolves with how many requests were held. */
const payPart = (state: 'held' | 'release') =>
  executeServerCommand<{ held: number }, string>('pay-part', state);

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
    await payPart('held');
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    const form = () => el.shadowRoot?.querySelector('form');
    await until('the form drawn, no longer its placeholder', () => form()?.inert === false);
    // The part is asked for right after the form's first paint, and held: what follows happens
    // before it comes. (The request may reach the runner after the form is drawn.)
    let held = 0;
    await until(
      () => `the pay part asked for (held: ${held})`,
      async () => {
        held = (await payPart('held')).held;
        return held > 0;
      },
    );
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
    expect(form()?.getAttribute('aria-busy')).to.equal('true');
    // Pressed again while it waits: still one payment.
    button.click();
    expect(backend.puts()).to.have.length(0);

    await payPart('release');
    await success;
    expect(backend.puts()).to.have.length(1);
  });
});
