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

  // A month as a card prints it ("11 / 26"), `ahead` months from this one in UTC, the clock both
  // the widget and the sandbox read.
  const printed = (ahead: number) => {
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
    const mm = `${month.getUTCMonth() + 1}`.padStart(2, '0');
    return `${mm} / ${`${month.getUTCFullYear()}`.slice(2)}`;
  };

  it('says an expired card has expired, where and as every field error is said, and Pay goes to it', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const expiry = $(el, '#expiry');
    // Typed as printed on a card that ran out last month, then left.
    expiry.focus();
    await sendKeys({ type: printed(-1).replace(' / ', '') });
    expiry.blur();
    await el.updateComplete;
    expect(expiry.value).to.equal(printed(-1));
    expect(error(el, 'expiry').hidden).to.equal(false);
    expect(error(el, 'expiry').textContent?.trim()).to.equal('This card has expired');
    expect(expiry.getAttribute('aria-invalid')).to.equal('true');
    expect(expiry.getAttribute('aria-describedby')).to.equal('expiry-hint expiry-error');

    await fillCard(el, { expiry: printed(-1) });
    const invalid = oneEvent(el, 'payment-invalid');
    $(el, 'button[part~=button]').click();
    const { detail } = await invalid;
    await el.updateComplete;
    expect(detail.errors).to.deep.equal([
      { field: 'expiry', code: 'expired', message: 'This card has expired' },
    ]);
    expect(el.shadowRoot!.activeElement?.id).to.equal('expiry');
    expect($(el, '[role=status][part~=status]').textContent?.trim()).to.equal(
      'Check the highlighted fields',
    );
    expect(backend.puts()).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('keeps "Enter a valid expiry date" for a date that is none, or not finished', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const expiry = $(el, '#expiry');
    for (const typed of ['13 / 27', `${printed(-1).slice(0, -1)}`, '00 / 20']) {
      paste(expiry, typed);
      expiry.blur();
      await el.updateComplete;
      expect(error(el, 'expiry').textContent?.trim(), typed).to.equal('Enter a valid expiry date');
      expect(expiry.getAttribute('aria-invalid'), typed).to.equal('true');
    }
  });

  it('pays with a card good through this month', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el, { expiry: printed(0) });
    expect(error(el, 'expiry').hidden).to.equal(true);
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
    const [put] = backend.puts();
    const card = (put?.body as { card?: Record<string, string> } | undefined)?.card;
    expect(`${card?.expiry_month} / ${card?.expiry_year?.slice(2)}`).to.equal(printed(0));
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
