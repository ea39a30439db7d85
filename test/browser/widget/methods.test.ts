import { expect, oneEvent } from '@open-wc/testing';
import { mount, type ResponseType } from '../../../src/index.ts';
import { CheckoutProcessBodySchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillBoletoPayer, fillCard, paste, text, widget } from './fake-backend.ts';

const choose = async (el: HTMLElement & { updateComplete: Promise<boolean> }, method: string) => {
  el.shadowRoot!.querySelector<HTMLInputElement>(`input[name=method][value=${method}]`)!.click();
  await el.updateComplete;
};

const labels = (el: HTMLElement) =>
  [...el.shadowRoot!.querySelectorAll('label[for]')].map((l) => l.textContent?.trim());

describe('payment-widget: alternative methods, saved cards, resume, mount', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('asks iDEAL for name and email only and redirects to the bank', async () => {
    backend.methods = ['card', 'ideal'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    backend.process = () => ({
      status: 202,
      body: {
        next_step: {
          url: 'https://bank.example/ideal',
          full: 'https://bank.example/ideal?c=chk_1',
        },
      },
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    const navigations: { url: string }[] = [];
    el.navigate = (request) => navigations.push(request);
    const changed = oneEvent(el, 'payment-change');
    await choose(el, 'ideal');
    expect((await changed).detail).to.deep.equal({
      valid: false,
      complete: false,
      network: undefined,
      paymentMethod: 'ideal',
    });
    expect(labels(el)).to.deep.equal(['First name', 'Last name', 'Email']);
    await expect(el).to.be.accessible();
    paste($(el, '#firstName'), 'Ada');
    paste($(el, '#lastName'), 'Lovelace');
    paste($(el, '#email'), 'ada@example.com');
    const submitted = oneEvent(el, 'payment-submit');
    void el.submit();
    expect((await submitted).detail).to.deep.equal({ paymentMethod: 'ideal' });
    await until('a navigation to the bank', () => navigations.length > 0);
    const body = backend.puts()[0]?.body;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    expect(body).to.deep.equal({
      payment_type: 'ideal',
      personal_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });
    expect(navigations[0]?.url).to.equal('https://bank.example/ideal?c=chk_1');
  });

  it('asks boleto also for tax id and address, and shows the voucher as pending', async () => {
    backend.issuesBoleto();
    const el = await widget(backend, 'checkout-id="chk_1"');
    await choose(el, 'boleto');
    expect(labels(el)).to.deep.equal([
      'First name',
      'Last name',
      'Email',
      'CPF or CNPJ',
      'Street and number',
      'City',
      'State',
      'Postal code',
    ]);
    paste($(el, '#taxId'), '123.456');
    fillBoletoPayer(el);
    const invalid = oneEvent(el, 'payment-invalid');
    void el.submit();
    expect((await invalid).detail.errors.map((e: { field: string }) => e.field)).to.deep.equal([
      'taxId',
    ]);
    paste($(el, '#taxId'), '123.456.789-09');
    const pending = oneEvent(el, 'payment-pending');
    void el.submit();
    // Issued now, by this page's Pay: not resumed.
    expect((await pending).detail.resumed).to.equal(undefined);
    await el.updateComplete;
    const body = backend.puts()[0]?.body;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    expect(body).to.deep.equal({
      payment_type: 'boleto',
      personal_details: {
        first_name: 'Ana',
        last_name: 'Silva',
        email: 'ana@example.com',
        tax_id: '12345678909',
        address: {
          line_1: 'Rua A 1',
          city: 'São Paulo',
          state: 'SP',
          postal_code: '01000-000',
          country: 'BR',
        },
      },
    });
    expect(text(el)).to.include('Payment pending').and.include('12345 67890');
    await expect(el).to.be.accessible();
  });

  it('pays with a saved card by token, and offers a new card instead', async () => {
    backend.instruments = [
      { token: 'tok_1', active: true, type: 'card', card: { last_4_digits: '0091', type: 'VISA' } },
      {
        token: 'tok_old',
        active: false,
        type: 'card',
        card: { last_4_digits: '1111', type: 'VISA' },
      },
    ];
    const el = await widget(backend, 'checkout-id="chk_1" customer-id="cus_1"');
    expect(backend.calls.some((c) => c.path === '/customers/cus_1/payment-instruments')).to.equal(
      true,
    );
    expect(text(el)).to.include('VISA ending in 0091').and.include('Use a new card');
    expect(text(el)).not.to.include('1111');
    expect(el.shadowRoot!.querySelector('#number')).to.equal(null);
    await expect(el).to.be.accessible();

    const submitted = oneEvent(el, 'payment-submit');
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    expect((await submitted).detail).to.deep.equal({
      paymentMethod: 'card',
      last4: '0091',
      network: 'VISA',
    });
    await success;
    const body = backend.puts()[0]?.body;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    expect(body).to.deep.equal({ payment_type: 'card', token: 'tok_1', customer_id: 'cus_1' });
  });

  it('shows the card fields for a new card next to saved ones', async () => {
    backend.instruments = [{ token: 'tok_1', card: { last_4_digits: '0091', type: 'VISA' } }];
    const el = await widget(backend, 'checkout-id="chk_1" customer-id="cus_1"');
    el.shadowRoot!.querySelector<HTMLInputElement>('input[name=saved][value=""]')!.click();
    await el.updateComplete;
    expect(labels(el)).to.include('Card number');
  });

  it('asks for a recurring mandate when the user ticks "save this card"', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" save-card');
    await fillCard(el);
    $(el, '#save').click();
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    const body = backend.puts()[0]?.body as Record<string, unknown>;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    expect(body.mandate).to.deep.equal({ type: 'recurrent', user_agent: navigator.userAgent });
  });

  it('sends no mandate when the box is left unticked', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" save-card');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    expect(backend.puts()[0]?.body).not.to.have.property('mandate');
  });

  it('resumes on the return page: a settled checkout shows its outcome instead of the form', async () => {
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-success' });
    expect(text(el)).to.include('Payment successful');
    expect(el.shadowRoot!.querySelector('#number')).to.equal(null);
    expect(backend.calls.map((c) => c.path)).to.deep.equal(['/checkouts/chk_1']);

    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const failed = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    expect(text(failed)).to.include('Payment failed');
  });

  it('mount() renders into an element and reports with the provider widget names', async () => {
    backend.install();
    const host = document.createElement('div');
    host.id = 'pay-here';
    document.body.append(host);
    const responses: [ResponseType, unknown][] = [];
    const widgetApi = mount({
      id: 'pay-here',
      checkoutId: 'chk_1',
      locale: 'en-GB',
      showZipCode: true,
      onResponse: (type, body) => responses.push([type, body]),
    });
    const el = host.querySelector('payment-widget')!;
    await oneEvent(el, 'payment-ready');
    expect(el.showZipCode).to.equal(true);
    await widgetApi.submit();
    expect(responses.map(([t]) => t)).to.deep.equal(['invalid']);
    await fillCard(el);
    paste($(el, '#zip'), '94107');
    const success = oneEvent(el, 'payment-success');
    await widgetApi.submit();
    await success;
    expect(responses.map(([t]) => t)).to.deep.equal(['invalid', 'sent', 'success']);
    widgetApi.update({ donate: true });
    expect(el.donate).to.equal(true);
    widgetApi.unmount();
    expect(host.children.length).to.equal(0);
    host.remove();
  });

  it('reset() empties the fields and hides errors', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    paste($(el, '#number'), '4200');
    void el.submit();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('[aria-invalid=true]').length).to.be.greaterThan(0);
    el.reset();
    await el.updateComplete;
    expect($(el, '#number').value).to.equal('');
    expect(el.shadowRoot!.querySelectorAll('[aria-invalid=true]').length).to.equal(0);
    expect($(el, '[part~=status]').textContent?.trim()).to.equal('');
    el.focus();
    expect(el.shadowRoot!.activeElement?.id).to.equal('number');
  });
  it('reset() keeps what each method and saved-card radio stands for', async () => {
    backend.methods = ['card', 'ideal'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    backend.instruments = [{ token: 'tok_1', card: { last_4_digits: '0091', type: 'VISA' } }];
    const el = await widget(backend, 'checkout-id="chk_1" customer-id="cus_1"');
    const values = (name: string) =>
      [...el.shadowRoot!.querySelectorAll<HTMLInputElement>(`input[name=${name}]`)].map(
        (r) => r.value,
      );
    expect(values('method')).to.deep.equal(['card', 'ideal']);
    expect(values('saved')).to.deep.equal(['tok_1', '']);
    el.reset();
    await el.updateComplete;
    expect(values('method')).to.deep.equal(['card', 'ideal']);
    expect(values('saved')).to.deep.equal(['tok_1', '']);

    // Still working choices after the reset: iDEAL asks for the payer, and
    // back on card the saved card pays by its token.
    await choose(el, 'ideal');
    expect(labels(el)).to.deep.equal(['First name', 'Last name', 'Email']);
    await choose(el, 'card');
    expect(values('saved')).to.deep.equal(['tok_1', '']);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    expect(backend.puts()[0]?.body).to.deep.equal({
      payment_type: 'card',
      token: 'tok_1',
      customer_id: 'cus_1',
    });
  });
});
