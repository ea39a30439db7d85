import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PaymentInvalidDetail } from '../../../src/index.ts';
import { $, FakeBackend, fillCard, paste, text, widget } from './fake-backend.ts';

describe('payment-widget: when errors show', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  const error = (el: HTMLElement, field: string) =>
    el.shadowRoot!.querySelector<HTMLElement>(`#${field}-error`)!;

  it('says nothing while the first number is still being typed', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    number.focus();
    await sendKeys({ type: '4200' });
    await el.updateComplete;
    expect(error(el, 'number').hidden).to.equal(true);
    expect(number.hasAttribute('aria-invalid')).to.equal(false);
    expect(number.hasAttribute('aria-describedby')).to.equal(false);
  });

  it('shows the error once a changed field is left, wired to the input', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    number.focus();
    await sendKeys({ type: '4200' });
    $(el, '#expiry').focus();
    await el.updateComplete;
    expect(error(el, 'number').hidden).to.equal(false);
    expect(error(el, 'number').textContent?.trim()).to.equal('Enter a valid card number');
    expect(number.getAttribute('aria-invalid')).to.equal('true');
    expect(number.getAttribute('aria-describedby')).to.equal('number-error');
    await expect(el).to.be.accessible();

    // Fixed: the error goes away as soon as the number is good.
    number.focus();
    await sendKeys({ type: '000000000091' });
    await el.updateComplete;
    expect(error(el, 'number').hidden).to.equal(true);
    expect(number.hasAttribute('aria-invalid')).to.equal(false);
  });

  it('does not blame a field the user only passed through', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    $(el, '#number').focus();
    $(el, '#expiry').focus();
    $(el, '#cvv').focus();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('.error:not([hidden])').length).to.equal(0);
  });

  it('links the expiry hint and, when shown, its error', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const expiry = $(el, '#expiry');
    expect(expiry.getAttribute('aria-describedby')).to.equal('expiry-hint');
    paste(expiry, '13/20');
    expiry.blur();
    await el.updateComplete;
    expect(expiry.getAttribute('aria-describedby')).to.equal('expiry-hint expiry-error');
    expect(error(el, 'expiry').textContent?.trim()).to.equal('Enter a valid expiry date');
  });

  it('on submit shows every error, announces it, moves focus to the first and sends nothing', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    paste($(el, '#number'), '4200000000000091');
    const invalid = new Promise<CustomEvent<PaymentInvalidDetail>>((resolve) =>
      el.addEventListener('payment-invalid', resolve, { once: true }),
    );
    $(el, 'button[part~=button]').click();
    const event = await invalid;
    await el.updateComplete;
    expect(event.detail.errors).to.deep.equal([
      { field: 'expiry', code: 'required', message: 'This field is required' },
      { field: 'cvv', code: 'required', message: 'This field is required' },
      { field: 'name', code: 'required', message: 'This field is required' },
    ]);
    expect(el.shadowRoot!.activeElement?.id).to.equal('expiry');
    expect($(el, '[role=status][part~=status]').textContent?.trim()).to.equal(
      'Check the highlighted fields',
    );
    expect(el.shadowRoot!.querySelectorAll('[aria-invalid=true]').length).to.equal(3);
    expect(backend.puts()).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('checks the security code against the network (four digits for AMEX)', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el, { number: '378282246310005', cvv: '123' });
    $(el, 'button[part~=button]').click();
    await el.updateComplete;
    expect(error(el, 'cvv').textContent?.trim()).to.equal('Enter a valid security code');
  });

  it('checks zip and email when they are shown', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" show-zip-code show-email');
    await fillCard(el);
    paste($(el, '#zip'), '123');
    paste($(el, '#email'), 'not-an-email');
    // The summary comes once focus is on the first invalid field, payment-invalid after it.
    const invalid = oneEvent(el, 'payment-invalid');
    $(el, 'button[part~=button]').click();
    await invalid;
    await el.updateComplete;
    expect(error(el, 'zip').textContent?.trim()).to.equal('Enter a 5-digit ZIP code');
    expect(error(el, 'email').textContent?.trim()).to.equal('Enter a valid email address');
    expect(text(el)).to.include('Check the highlighted fields');
  });
});
