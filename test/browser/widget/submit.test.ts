import { expect, oneEvent } from '@open-wc/testing';
import { CheckoutProcessBodySchema } from '../../../src/schemas/index.ts';
import { WIDGET_EVENTS } from '../../shared/events.ts';
import { until } from '../../shared/until.ts';
import {
  $,
  errorReply,
  FakeBackend,
  fillCard,
  paste,
  type Reply,
  text,
  widget,
} from './fake-backend.ts';

/**
 * Every event the widget fires, in order, as [name, detail]. One that would not reach the
 * page (not bubbling, or not composed out of the shadow root) is recorded under a name that
 * says so, which every test's list of names then shows (an expectation failing inside the
 * listener would be an error of the page, not of the test).
 */
function record(el: HTMLElement): [string, unknown][] {
  const seen: [string, unknown][] = [];
  for (const name of WIDGET_EVENTS) {
    el.addEventListener(name, (e) => {
      const event = e as CustomEvent;
      const reaches = event.bubbles && event.composed;
      seen.push([reaches ? name : `${name} (stays inside the widget)`, event.detail]);
    });
  }
  return seen;
}

const names = (events: [string, unknown][]) =>
  events.map(([n]) => n).filter((n) => n !== 'payment-change');

describe('payment-widget: paying by card', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('sends a body the schema accepts, confirms with a GET, shows success, wipes the number', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const events = record(el);
    await fillCard(el, {
      number: '4200 0000 0000 0091',
      expiry: '12/34',
      cvv: '123',
      name: 'Ada Lovelace',
    });
    // The filled state.
    await expect(el).to.be.accessible();
    const number = $(el, '#number');
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    const { detail } = await success;
    await el.updateComplete;

    const [put] = backend.puts();
    expect(put?.path).to.equal('/checkouts/chk_1');
    expect(CheckoutProcessBodySchema.safeParse(put?.body).success).to.equal(true);
    expect(put?.body).to.deep.equal({
      payment_type: 'card',
      card: {
        name: 'Ada Lovelace',
        number: '4200000000000091',
        expiry_month: '12',
        expiry_year: '2034',
        cvv: '123',
        last_4_digits: '0091',
        type: 'VISA',
      },
    });
    // The 200 is not trusted: the status comes from a fresh GET after the PUT.
    const after = backend.calls.slice(backend.calls.indexOf(put!) + 1);
    expect(after.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['GET /checkouts/chk_1']);

    expect(detail.checkout).to.include({ id: 'chk_1', status: 'PAID' });
    expect(names(events)).to.deep.equal(['payment-submit', 'payment-success']);
    expect(events.find(([n]) => n === 'payment-submit')?.[1]).to.deep.equal({
      paymentMethod: 'card',
      last4: '0091',
      network: 'VISA',
    });
    // No event carries the number or the CVV.
    expect(JSON.stringify(events)).not.to.match(/4200000000000091|4200 0000|"123"/);
    expect(text(el)).to.include('Payment successful');
    expect(number.value).to.equal('');
    expect(el.shadowRoot!.querySelector('#number')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('emits payment-change with validity, completeness and network as the user types', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    const events = record(el);
    paste($(el, '#number'), '4200');
    await fillCard(el);
    const changes = events.filter(([n]) => n === 'payment-change').map(([, d]) => d);
    expect(changes[0]).to.deep.equal({
      valid: false,
      complete: false,
      network: 'VISA',
      paymentMethod: 'card',
    });
    expect(changes.at(-1)).to.deep.equal({
      valid: true,
      complete: true,
      network: 'VISA',
      paymentMethod: 'card',
    });
  });

  it('sends zip, installments and email when those fields are shown', async () => {
    const el = await widget(
      backend,
      'checkout-id="chk_1" show-zip-code show-installments show-email',
    );
    await fillCard(el);
    paste($(el, '#zip'), '94107-1234');
    paste($(el, '#email'), 'ada@example.com');
    const select = el.shadowRoot!.querySelector('select')!;
    select.value = '3';
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    const done = oneEvent(el, 'payment-success');
    await el.submit();
    await done;
    const body = backend.puts()[0]?.body as Record<string, unknown>;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    expect((body.card as Record<string, unknown>).zip_code).to.equal('94107');
    expect(body.installments).to.equal(3);
    expect(body.personal_details).to.deep.equal({ email: 'ada@example.com' });
  });

  it('sends one request however often the button is clicked, and is accessible meanwhile', async () => {
    let answer!: (reply: Reply) => void;
    backend.process = () => new Promise<Reply>((resolve) => (answer = resolve));
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const button = $(el, 'button[part~=button]');
    button.click();
    button.click();
    button.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    void el.submit();
    await el.updateComplete;
    button.click();
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(button.textContent?.trim()).to.equal('Processing…');
    expect($(el, 'form').getAttribute('aria-busy')).to.equal('true');
    await expect(el).to.be.accessible();
    expect(backend.puts()).to.have.length(1);

    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const success = oneEvent(el, 'payment-success');
    answer({ status: 200, body: backend.checkout });
    await success;
    expect(backend.puts()).to.have.length(1);
  });

  it('shows "Payment failed" when the confirmed checkout is FAILED', async () => {
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    const events = record(el);
    await fillCard(el);
    const failure = oneEvent(el, 'payment-failure');
    $(el, 'button[part~=button]').click();
    expect((await failure).detail.checkout.status).to.equal('FAILED');
    await el.updateComplete;
    expect(names(events)).to.deep.equal(['payment-submit', 'payment-failure']);
    expect(text(el)).to.include('Payment failed');
    await expect(el).to.be.accessible();
  });

  it('believes the confirmation, not the process answer', async () => {
    backend.process = () => ({ status: 200, body: { ...backend.checkout, status: 'PAID' } });
    let gets = 0;
    // The first GET (loading) sees a payable checkout; the confirmation says FAILED.
    backend.overrides.set('GET /checkouts/chk_1', () => {
      gets += 1;
      return {
        status: 200,
        body: { ...backend.checkout, status: gets === 1 ? 'PENDING' : 'FAILED' },
      };
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const failure = oneEvent(el, 'payment-failure');
    void el.submit();
    expect((await failure).detail.checkout.status).to.equal('FAILED');
    await el.updateComplete;
    expect(text(el)).to.include('Payment failed');
    expect(gets).to.equal(2);
  });

  it('lets the user retry after a server error, with payment-error retryable', async () => {
    let calls = 0;
    backend.process = () => {
      calls += 1;
      if (calls === 1) return errorReply(502, 'PROVIDER_UNREACHABLE', 'Provider down');
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    const { requestId, ...detail } = (await error).detail;
    expect(detail).to.deep.equal({
      code: 'PROVIDER_UNREACHABLE',
      message: 'Provider down',
      retryable: true,
    });
    // The id the widget sent with the failed call, to find it in the server's logs.
    expect(requestId).to.match(/^[0-9a-z]+-[0-9a-z]+$/);
    expect(backend.calls.find((c) => c.method === 'PUT')?.requestId).to.equal(requestId);
    await el.updateComplete;
    expect($(el, '[part~=status]').textContent?.trim()).to.equal(
      'The payment could not be processed.',
    );
    const button = $(el, 'button[part~=button]');
    expect(button.disabled).to.equal(false);
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');
    await expect(el).to.be.accessible();

    const success = oneEvent(el, 'payment-success');
    button.click();
    await success;
    expect(backend.puts()).to.have.length(2);
  });

  it('reports a network failure as retryable and a processed checkout as not', async () => {
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      throw new TypeError('Failed to fetch');
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    let error = oneEvent(el, 'payment-error');
    void el.submit();
    expect((await error).detail).to.include({ code: 'NETWORK_ERROR', retryable: true });
    await el.updateComplete;
    expect(text(el)).to.include('could not reach the payment service');

    backend.overrides.set('PUT /checkouts/chk_1', () =>
      errorReply(409, 'CHECKOUT_PROCESSED', 'Checkout already processed'),
    );
    error = oneEvent(el, 'payment-error');
    void el.submit();
    expect((await error).detail).to.include({ code: 'CHECKOUT_PROCESSED', retryable: false });
  });

  it('hands a 3DS next step to an iframe, emits payment-challenge, and cancel returns to the form', async () => {
    const acs = new URL('/acs-test-page', location.href).href;
    backend.process = () => ({
      status: 202,
      body: {
        next_step: { url: acs, method: 'POST', payload: { PaReq: 'x', MD: 'y', TermUrl: acs } },
      },
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const challenge = oneEvent(el, 'payment-challenge');
    void el.submit();
    expect((await challenge).detail).to.deep.equal({ mode: 'iframe', url: acs });
    await el.updateComplete;
    const frame = el.shadowRoot!.querySelector('iframe');
    expect(frame).not.to.equal(null);
    expect($(el, 'form').hidden).to.equal(true);

    const cancel = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~=challenge-cancel]')!;
    cancel.click();
    await until('the form again', () => !$(el, 'form').hidden);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect($(el, 'form').hidden).to.equal(false);
    // The typed card is still there, so paying again is one click.
    expect($(el, '#number').value).to.equal('4200 0000 0000 0091');
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'PAID' };
      return { status: 200, body: backend.checkout };
    };
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
  });

  for (const url of ['javascript:alert(1)', 'http://example.com/acs']) {
    it(`refuses a next step at ${url} and navigates nowhere`, async () => {
      backend.process = () => ({
        status: 202,
        body: { next_step: { url, method: 'POST', payload: {} } },
      });
      const el = await widget(backend, 'checkout-id="chk_1" challenge="redirect"');
      const navigations: unknown[] = [];
      el.navigate = (request) => navigations.push(request);
      await fillCard(el);
      const error = oneEvent(el, 'payment-error');
      void el.submit();
      expect((await error).detail).to.include({ code: 'UNSAFE_NEXT_STEP', retryable: false });
      await el.updateComplete;
      expect(navigations).to.deep.equal([]);
      expect($(el, 'form').hidden).to.equal(false);
    });
  }

  it('redirects for 3DS with challenge="redirect", after emitting payment-challenge', async () => {
    const acs = 'https://acs.example/challenge';
    backend.process = () => ({
      status: 202,
      body: {
        next_step: {
          url: acs,
          method: 'POST',
          payload: { PaReq: 'p', MD: 'm', TermUrl: 'https://acs.example/term' },
        },
      },
    });
    const el = await widget(backend, 'checkout-id="chk_1" challenge="redirect"');
    const events = record(el);
    const navigations: { url: string; method: string; fields: Record<string, string> }[] = [];
    el.navigate = (request) => navigations.push(request);
    await fillCard(el);
    void el.submit();
    await until('a navigation', () => navigations.length > 0);
    expect(names(events)).to.deep.equal(['payment-submit', 'payment-challenge']);
    expect(events.find(([n]) => n === 'payment-challenge')?.[1]).to.deep.equal({
      mode: 'redirect',
      url: acs,
    });
    expect(navigations).to.deep.equal([
      {
        url: acs,
        method: 'POST',
        fields: { PaReq: 'p', MD: 'm', TermUrl: 'https://acs.example/term' },
      },
    ]);
  });

  it('runs no next step and navigates nowhere once removed while the process request is out', async () => {
    let answer!: (reply: Reply) => void;
    backend.process = () => new Promise<Reply>((resolve) => (answer = resolve));
    const el = await widget(backend, 'checkout-id="chk_1" challenge="redirect"');
    const events = record(el);
    const navigations: unknown[] = [];
    el.navigate = (request) => navigations.push(request);
    await fillCard(el);
    const paying = el.submit();
    await until('the process request', () => backend.puts().length === 1);
    const parent = el.parentElement!;
    el.remove();
    answer({
      status: 202,
      body: {
        next_step: {
          url: 'https://acs.example/challenge',
          method: 'POST',
          payload: { PaReq: 'p', MD: 'm', TermUrl: 'https://acs.example/term' },
        },
      },
    });
    await paying;
    expect(navigations).to.deep.equal([]);
    expect(names(events)).to.deep.equal(['payment-submit']);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);

    // Put back, it shows the form again, still payable.
    parent.append(el);
    await el.updateComplete;
    expect($(el, 'form').hidden).to.equal(false);
    expect($(el, 'button[type=submit]').disabled).to.equal(false);
  });
});
