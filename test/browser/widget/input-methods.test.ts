// Shoppers who do not type digit by digit: what a paste, an IME, a password manager or a
// key other than Backspace puts into the card fields (and the other fields typed as digits),
// as each engine delivers it.
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { $, FakeBackend, fillBoletoPayer, fillCard, paste, widget } from './fake-backend.ts';

/**
 * Inserts `text` at the caret as the browser inserts a paste, a drop or a dictated word:
 * through its editor, which keeps to the input's own limits (maxlength) before the page
 * sees the text. (paste() sets the value, as an autofill does, past any such limit.)
 */
function insert(input: HTMLInputElement, text: string): void {
  input.focus();
  document.execCommand('insertText', false, text);
}

describe('payment-widget: pasting, IMEs and other ways in', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('keeps a security code pasted with spaces whole, and cuts a long one to its network', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    paste($(el, '#number'), '4200000000000091');
    await el.updateComplete;
    const cvv = $(el, '#cvv');
    insert(cvv, ' 123');
    expect(cvv.value).to.equal('123');
    cvv.value = '';
    insert(cvv, '1 2 3');
    expect(cvv.value).to.equal('123');
    cvv.value = '';
    insert(cvv, '12345');
    expect(cvv.value).to.equal('123');
  });

  it('leaves the text an IME composes alone, and groups it once the composition ends', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    paste(number, '4242');
    const composition = (type: string, data: string) =>
      number.dispatchEvent(new CompositionEvent(type, { bubbles: true, composed: true, data }));
    // What an Android keyboard or a desktop IME does: the engine puts each longer text in
    // the field and says so with an input event that is composing.
    composition('compositionstart', '');
    for (const text of ['4', '42', '424', '4242', '42424']) {
      number.value = `4242${text}`;
      number.dispatchEvent(
        new InputEvent('input', {
          bubbles: true,
          composed: true,
          inputType: 'insertCompositionText',
          data: text,
          isComposing: true,
        }),
      );
      expect(number.value, text).to.equal(`4242${text}`);
    }
    composition('compositionend', '42424');
    expect(number.value).to.equal('4242 4242 4');
    expect(number.selectionStart).to.equal(11);
  });

  it("reads a Japanese keyboard's full-width digits as digits", async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    insert(number, '４２００　００００　００００　００９１');
    expect(number.value).to.equal('4200 0000 0000 0091');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[part~=icon]')?.textContent?.trim()).to.equal('VISA');
    const expiry = $(el, '#expiry');
    insert(expiry, '１２／３４');
    expect(expiry.value).to.equal('12 / 34');
    const cvv = $(el, '#cvv');
    insert(cvv, '１２３');
    expect(cvv.value).to.equal('123');
  });

  it("reads an Arabic or a Persian keyboard's digits as digits when typed", async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const changes: { valid: boolean }[] = [];
    el.addEventListener('payment-change', (e) => changes.push((e as CustomEvent).detail));
    const number = $(el, '#number');
    // Typed key by key, as an Arabic numeric pad (iOS, Samsung) types them.
    number.focus();
    await sendKeys({ type: '٤٢٠٠٠٠٠٠٠٠٠٠٠٠٩١' });
    expect(number.value).to.equal('4200 0000 0000 0091');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[part~=icon]')?.textContent?.trim()).to.equal('VISA');
    const expiry = $(el, '#expiry');
    expiry.focus();
    await sendKeys({ type: '۱۲/۳۴' });
    expect(expiry.value).to.equal('12 / 34');
    const cvv = $(el, '#cvv');
    cvv.focus();
    await sendKeys({ type: '١٢٣' });
    expect(cvv.value).to.equal('123');
    // A name is left as typed, its digits and letters alike.
    const name = $(el, '#name');
    name.focus();
    await sendKeys({ type: 'علي ٢' });
    expect(name.value).to.equal('علي ٢');
    expect(changes.at(-1)?.valid).to.equal(true);
  });

  it("reads an Arabic or a Persian keyboard's digits as digits when pasted", async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const changes: { valid: boolean }[] = [];
    el.addEventListener('payment-change', (e) => changes.push((e as CustomEvent).detail));
    const number = $(el, '#number');
    insert(number, '۳۷۸۲ ۸۲۲۴۶۳ ۱۰۰۰۵');
    expect(number.value).to.equal('3782 822463 10005');
    // Arabic digits with a Japanese keyboard's full-width slash.
    const expiry = $(el, '#expiry');
    insert(expiry, '١٢／٣٤');
    expect(expiry.value).to.equal('12 / 34');
    const cvv = $(el, '#cvv');
    insert(cvv, '١٢٣٤');
    expect(cvv.value).to.equal('1234');
    insert($(el, '#name'), 'Ada Lovelace');
    expect(changes.at(-1)?.valid).to.equal(true);
  });

  it("reads an Arabic keyboard's digits in the ZIP code as digits, and sends them", async () => {
    const el = await widget(backend, 'checkout-id="chk_1" show-zip-code');
    const zip = $(el, '#zip');
    zip.focus();
    await sendKeys({ type: '٩٤١٠٧' });
    // Before, the field kept them and the body's zip_code was empty: "Enter a 5-digit ZIP code".
    expect(zip.value).to.equal('94107');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    const body = backend.puts()[0]?.body as { card?: { zip_code?: string } } | undefined;
    expect(body?.card?.zip_code).to.equal('94107');
  });

  it("reads a Persian keyboard's digits in a boleto's tax id as digits, and sends them", async () => {
    backend.issuesBoleto(['boleto']);
    const el = await widget(backend, 'checkout-id="chk_1"');
    const taxId = $(el, '#taxId');
    taxId.focus();
    await sendKeys({ type: '۱۲۳.۴۵۶.۷۸۹-۰۹' });
    expect(taxId.value).to.equal('123.456.789-09');
    fillBoletoPayer(el);
    const pending = oneEvent(el, 'payment-pending');
    void el.submit();
    await pending;
    const body = backend.puts()[0]?.body as { personal_details?: { tax_id?: string } } | undefined;
    expect(body?.personal_details?.tax_id).to.equal('12345678909');
  });

  it("reads a Japanese keyboard's full-width digits in a boleto's postal code as digits", async () => {
    backend.issuesBoleto(['boleto']);
    const el = await widget(backend, 'checkout-id="chk_1"');
    fillBoletoPayer(el);
    paste($(el, '#taxId'), '123.456.789-09');
    const postalCode = $(el, '#postalCode');
    postalCode.focus();
    postalCode.select();
    await sendKeys({ type: '０１３１０-１００' });
    expect(postalCode.value).to.equal('01310-100');
    const pending = oneEvent(el, 'payment-pending');
    void el.submit();
    await pending;
    const body = backend.puts()[0]?.body as
      | { personal_details?: { address?: { postal_code?: string } } }
      | undefined;
    expect(body?.personal_details?.address?.postal_code).to.equal('01310-100');
  });

  it('formats and checks what a password manager fills with a change event alone', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const changes: { valid: boolean; complete: boolean }[] = [];
    el.addEventListener('payment-change', (e) => changes.push((e as CustomEvent).detail));
    // Some managers set each field's value and fire only `change` (bubbling, not composed,
    // as a browser's own), never `input`.
    const fill = (field: string, value: string) => {
      const input = $(el, `#${field}`);
      input.value = value;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    };
    fill('number', '4200000000000091');
    fill('expiry', '1234');
    fill('cvv', '123');
    fill('name', 'Ada Lovelace');
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');
    expect($(el, '#expiry').value).to.equal('12 / 34');
    expect(changes.at(-1)).to.include({ valid: true, complete: true });
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[part~=icon]')?.textContent?.trim()).to.equal('VISA');
  });

  it('deletes the digit after a gap or the expiry separator when Delete is pressed before it', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const number = $(el, '#number');
    paste(number, '4242424242424242');
    number.setSelectionRange(4, 4);
    await sendKeys({ press: 'Delete' });
    expect(number.value).to.equal('4242 2424 2424 242');
    expect(number.selectionStart).to.equal(4);
    const expiry = $(el, '#expiry');
    paste(expiry, '1234');
    expiry.setSelectionRange(2, 2);
    await sendKeys({ press: 'Delete' });
    expect(expiry.value).to.equal('12 / 4');
    expect(expiry.selectionStart).to.equal(2);
  });
});
