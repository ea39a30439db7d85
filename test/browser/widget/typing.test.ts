import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { $, FakeBackend, paste, widget } from './fake-backend.ts';

describe('payment-widget: typing and pasting', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  const iconText = (el: HTMLElement) =>
    el.shadowRoot?.querySelector('[part~=icon]')?.textContent?.trim() ?? '';

  for (const [network, typed, shown, cvvMax, icon] of [
    ['VISA', '4200000000000091', '4200 0000 0000 0091', 3, 'VISA'],
    ['MASTERCARD', '5200000000000007', '5200 0000 0000 0007', 3, ''],
    ['AMEX', '378282246310005', '3782 822463 10005', 4, 'AMEX'],
  ] as const) {
    it(`groups a ${network} number as it is typed, with its icon and CVV length`, async () => {
      const el = await widget(backend, 'checkout-id="chk_1"');
      const number = $(el, '#number');
      number.focus();
      await sendKeys({ type: typed });
      await el.updateComplete;
      expect(number.value).to.equal(shown);
      expect(number.selectionStart).to.equal(shown.length);
      const cvv = $(el, '#cvv');
      cvv.focus();
      await sendKeys({ type: '12345' });
      expect(cvv.value).to.equal('12345'.slice(0, cvvMax));
      expect(cvv.selectionStart).to.equal(cvvMax);
      if (icon) expect(iconText(el)).to.equal(icon);
      else expect(el.shadowRoot!.querySelectorAll('[part~=icon] circle').length).to.equal(2);
    });
  }

  it('takes a pasted number with spaces and dashes', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    paste(number, '4200 0000-0000 0091');
    await el.updateComplete;
    expect(number.value).to.equal('4200 0000 0000 0091');
    expect(number.selectionStart).to.equal(19);
    expect(iconText(el)).to.equal('VISA');
  });

  it('keeps the caret after the digit typed in the middle of the number', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    number.focus();
    await sendKeys({ type: '42424242' });
    expect(number.value).to.equal('4242 4242');
    number.setSelectionRange(2, 2);
    await sendKeys({ type: '9' });
    expect(number.value).to.equal('4294 2424 2');
    expect(number.selectionStart).to.equal(3);
    // Backspace right after a gap removes the digit before it, not just the space.
    number.setSelectionRange(5, 5);
    await sendKeys({ press: 'Backspace' });
    expect(number.value).to.equal('4292 4242');
    expect(number.selectionStart).to.equal(3);
  });

  it('formats the expiry as MM / YY, padding a one-digit month', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const expiry = $(el, '#expiry');
    expiry.focus();
    await sendKeys({ type: '1234' });
    expect(expiry.value).to.equal('12 / 34');
    expect(expiry.selectionStart).to.equal(7);
    expiry.value = '';
    await sendKeys({ type: '5' });
    expect(expiry.value).to.equal('05');
  });

  it('keeps only digits in the security code, up to the network length', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    paste($(el, '#number'), '4200000000000091');
    await el.updateComplete;
    const cvv = $(el, '#cvv');
    paste(cvv, '1a2345');
    expect(cvv.value).to.equal('123');
  });

  it('never puts the card number or CVV into an attribute', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    paste($(el, '#number'), '4200000000000091');
    paste($(el, '#cvv'), '123');
    await el.updateComplete;
    const attributes = [el, ...el.shadowRoot!.querySelectorAll('*')].flatMap((n) =>
      [...n.attributes].map((a) => a.value),
    );
    expect(attributes.join(' ')).not.to.match(/4200|0091|123/);
  });
});
