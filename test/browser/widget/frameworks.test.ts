// Properties as frameworks set them (Svelte sets `order` as a property holding JSON text,
// before or after the element is defined; React hands `undefined` for a setting it has
// none for), and the console on a page's mistakes: each told once to the page's developer,
// what stops a payment as an error with the URL called, what is ignored as a warning, and
// nothing at all on a correct page.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { PaymentWidget } from '../../../src/index.ts';
import { MISSING_AFTER_MS } from '../../../src/widget/arrival.ts';
import { scaled, until } from '../../shared/until.ts';
import { $, declinedThenRetried, errorReply, FakeBackend, text, widget } from './fake-backend.ts';

/** What the page's console is told (`warn: ...`, `error: ...`) from now until `restore()`. */
function watchConsole(): { said: string[]; restore(): void } {
  const said: string[] = [];
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => said.push(`warn: ${args.join(' ')}`);
  console.error = (...args: unknown[]) => said.push(`error: ${args.join(' ')}`);
  return {
    said,
    restore() {
      console.warn = warn;
      console.error = error;
    },
  };
}

/** An element made by script, as a framework makes it, with `set` applied before it is attached. */
async function made(
  set: (el: PaymentWidget) => void,
  event = 'payment-ready',
): Promise<PaymentWidget> {
  const el = document.createElement('payment-widget');
  el.locale = 'en-GB';
  set(el);
  const heard = oneEvent(el, event);
  await fixture(html`<div>${el}</div>`);
  await heard;
  await el.updateComplete;
  return el;
}

describe('payment-widget: properties as frameworks set them', () => {
  let backend: FakeBackend;
  let console_: ReturnType<typeof watchConsole>;
  beforeEach(() => {
    backend = new FakeBackend().install();
    console_ = watchConsole();
  });
  afterEach(() => {
    console_.restore();
    backend.restore();
  });

  it('order as a property holding JSON text is the object it spells, set after the element is defined', async () => {
    const el = await made((e) => {
      e.order = '{"sku":"mug","size":2}';
    });
    expect(backend.calls[0]).to.deep.include({ method: 'POST', path: '/checkouts' });
    expect(backend.calls[0]?.body).to.deep.equal({ order: { sku: 'mug', size: 2 } });
    expect(el.order).to.deep.equal({ sku: 'mug', size: 2 });
    // Text that is not JSON stays text, as the attribute's does.
    const again = oneEvent(el, 'payment-ready');
    el.order = 'poster';
    await again;
    expect(backend.calls.at(-2)?.body).to.deep.equal({ order: 'poster' });
  });

  it('order as a property holding JSON text, set before the element is defined', async () => {
    const tag = 'payment-widget-json-order-test';
    const early = document.createElement(tag) as PaymentWidget;
    // A plain own property until the class is defined, as Svelte sets it on a page whose
    // script tag runs after the framework rendered.
    early.order = '{"sku":"poster"}';
    early.locale = 'en-GB';
    await fixture(html`<div>${early}</div>`);
    const ready = oneEvent(early, 'payment-ready');
    customElements.define(tag, class extends PaymentWidget {});
    await ready;
    expect(backend.calls[0]?.body).to.deep.equal({ order: { sku: 'poster' } });
    expect(early.order).to.deep.equal({ sku: 'poster' });
  });

  it('undefined for any setting is its default, and no mistake', async () => {
    const el = await made((e) => {
      e.checkoutId = 'chk_1';
      e.showInstallments = true;
      // What React passes for the props a page leaves out.
      for (const name of [
        'challenge',
        'endpoint',
        'maxInstallments',
        'noSubmitButton',
        'showZipCode',
        'showEmail',
        'saveCard',
        'donate',
        'customerId',
        'translations',
      ] as const) {
        (e as unknown as Record<string, unknown>)[name] = undefined;
      }
      // One real mistake, so that the warnings are known to have been said.
      e.paymentMethods = 'card undefined-test-method';
    });
    await until('the diagnosis of the settings', () => console_.said.length > 0);
    expect(console_.said).to.deep.equal([
      'warn: payment-widget: payment-methods="card undefined-test-method": undefined-test-method is not a payment method, and is ignored (the methods: card ideal bancontact blik boleto)',
    ]);
    expect(el.shadowRoot!.querySelectorAll('#installments option')).to.have.length(12);
    expect(backend.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal([
      'GET /checkouts/chk_1',
      'GET /payment-methods',
    ]);
    expect(text(el)).to.include('Pay €10.00');
  });
});

describe('payment-widget: the console on a page’s mistakes', () => {
  let backend: FakeBackend;
  let console_: ReturnType<typeof watchConsole>;
  beforeEach(() => {
    backend = new FakeBackend().install();
    console_ = watchConsole();
  });
  afterEach(() => {
    console_.restore();
    backend.restore();
  });

  const endpoint = (path: string) => new URL(`/payments${path}`, location.href).href;

  it('a method the page names that the checkout does not offer is warned of by name, with why', async () => {
    // A bank's method on a checkout made with redirect: false (no redirect_url to come back
    // to), and Boleto, which the handler does not offer for a euro checkout.
    backend.methods = ['card', 'ideal'];
    const event = oneEvent(document.body, 'payment-ready');
    const el = await widget(backend, 'checkout-id="chk_1" payment-methods="card ideal boleto"');
    expect((await event).detail.paymentMethods).to.deep.equal(['card']);
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.deep.equal([
      `warn: payment-widget: payment-methods="card ideal boleto": this checkout does not offer ideal boleto (a bank's method needs the redirect_url that resolveCheckout's redirect: false leaves out; GET /payment-methods?currency= lists what a currency offers)`,
    ]);
    expect(text(el)).to.include('Pay €10.00');
  });

  it('a checkout with a redirect_url offers the bank the page names, and no warning says otherwise', async () => {
    backend.methods = ['card', 'ideal'];
    backend.checkout = {
      ...backend.checkout,
      redirect_url: 'https://shop.example/payments/return',
    };
    const event = oneEvent(document.body, 'payment-ready');
    await widget(backend, 'checkout-id="chk_1" payment-methods="ideal card idael"');
    expect((await event).detail.paymentMethods).to.deep.equal(['card', 'ideal']);
    // One real mistake, so that the warnings are known to have been said.
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.deep.equal([
      'warn: payment-widget: payment-methods="ideal card idael": idael is not a payment method, and is ignored (the methods: card ideal bancontact blik boleto)',
    ]);
  });

  it('"Try another card" shows the card alone, and no warning says the checkout does not offer the rest', async () => {
    backend.methods = ['card', 'ideal'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    backend.process = () => {
      backend.checkout = { ...backend.checkout, status: 'FAILED' };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1" payment-methods="card ideal"');
    // One real mistake, told after the methods when the retry's form shows: said, so the
    // methods were checked.
    el.setAttribute('challenge', 'sideways');
    expect((await declinedThenRetried(el)).paymentMethods).to.deep.equal(['card']);
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.deep.equal([
      'warn: payment-widget: challenge="sideways" is not auto, iframe or redirect, and is ignored (auto: an iframe, or the full page when the checkout has a redirect_url)',
    ]);
  });

  it('a page that names only methods the checkout does not offer is told which, beside the error', async () => {
    backend.methods = ['card', 'ideal'];
    const el = await widget(backend, 'checkout-id="chk_1" payment-methods="ideal"', {
      waitFor: 'payment-error',
    });
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      /^warn: payment-widget: payment-methods="ideal": this checkout does not offer ideal \(.*redirect: false/,
    );
    expect(text(el)).to.not.include('Pay €10.00');
  });

  it('an order that looks like JSON and does not parse is warned of when the create fails', async () => {
    backend.overrides.set('POST /checkouts', () =>
      errorReply(400, 'INVALID', 'order.sku is not a product of this shop', { field: 'order.sku' }),
    );
    const el = await widget(backend, `order='{"sku": broken-create}'`, {
      waitFor: 'payment-error',
    });
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      /^warn: payment-widget: the order attribute \{"sku": broken-create\} looks like JSON but does not parse/,
    );
    expect(text(el)).to.include('The payment could not be processed');
  });

  for (const [status, what] of [
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
  ] as const) {
    it(`an endpoint answered ${status} by something that is not the handler: an error with the URL`, async () => {
      const path = `/checkouts/chk_${status}`;
      backend.overrides.set(`GET ${path}`, () => ({
        status,
        body: { message: what },
        notFromHandler: 'a framework’s own router, mounted where the handler is not',
      }));
      await widget(backend, `checkout-id="chk_${status}"`, { waitFor: 'payment-error' });
      await until('the error', () => console_.said.length > 0);
      expect(console_.said).to.have.length(1);
      expect(console_.said[0]).to.match(
        new RegExp(`^error: payment-widget: GET ${endpoint(path)} answered ${status}[^]*endpoint`),
      );
    });
  }

  it('an attribute written "false" (a server render of {false}, as Astro writes it): a warning for each, saying it is on', async () => {
    const el = await widget(
      backend,
      'checkout-id="chk_1" donate="false" save-card="false" show-email',
    );
    await until('the warnings', () => console_.said.length >= 2);
    expect(el.donate).to.equal(true);
    const [donate, saveCard] = console_.said.sort();
    expect(console_.said).to.have.length(2);
    expect(donate).to.match(/^warn: payment-widget: donate="false" sets donate: /);
    expect(donate).to.include('donate={value || undefined}');
    expect(saveCard).to.match(/^warn: payment-widget: save-card="false" sets save-card: /);
  });

  it('a server error in front of the handler: an error saying the server failed, not that endpoint is wrong', async () => {
    backend.overrides.set('POST /checkouts', () => ({
      status: 500,
      body: '<!doctype html><title>Error</title><h1>An error occurred.</h1>',
      headers: { 'content-type': 'text/html' },
      notFromHandler: 'a route whose own code threw before calling the handler (a setting missing)',
    }));
    await widget(backend, `order='{"sku":"server-error"}'`, { waitFor: 'payment-error' });
    await until('the error', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      new RegExp(`^error: payment-widget: POST ${endpoint('/checkouts')} answered 500`),
    );
    expect(console_.said[0]).to.include("the server's log");
    expect(console_.said[0]).not.to.include('set the widget');
  });

  it('a rate limiter in front of the handler (429): an error saying so, not that endpoint is wrong', async () => {
    backend.overrides.set('POST /checkouts', () => ({
      status: 429,
      body: { errors: [{ message: 'Too many requests' }] },
      notFromHandler: 'AdonisJS’s throttle middleware on the handler’s route',
    }));
    await widget(backend, `order='{"sku":"throttled"}'`, { waitFor: 'payment-error' });
    await until('the error', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      new RegExp(`^error: payment-widget: POST ${endpoint('/checkouts')} answered 429`),
    );
    expect(console_.said[0]).to.include('a rate limiter, a CSRF check or a login');
    expect(console_.said[0]).not.to.include('set the widget');
  });

  it('an HTML page where the handler should answer: an error with the URL', async () => {
    backend.overrides.set('POST /checkouts', () => ({
      status: 200,
      body: '<!doctype html><title>Shop</title>',
      headers: { 'content-type': 'text/html' },
      notFromHandler: 'a single-page app’s fallback page',
    }));
    await widget(backend, `order='{"sku":"html-page"}'`, { waitFor: 'payment-error' });
    await until('the error', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      new RegExp(
        `^error: payment-widget: POST ${endpoint('/checkouts')} answered 200: not a checkout\\. That is not the payment handler's answer`,
      ),
    );
    // A CSRF check's redirect back brings a page too: the console names it beside endpoint.
    expect(console_.said[0]).to.include('a CSRF check');
  });

  it('no answer at all from the endpoint: an error with the URL', async () => {
    backend.overrides.set('GET /checkouts/chk_gone', () => {
      throw new TypeError('Failed to fetch');
    });
    await widget(backend, 'checkout-id="chk_gone"', { waitFor: 'payment-error' });
    await until('the error', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(
      new RegExp(`^error: payment-widget: GET ${endpoint('/checkouts/chk_gone')} got no answer`),
    );
  });

  it('no answer while the browser is offline: nothing for the developer, the shopper told', async () => {
    backend.overrides.set('POST /checkouts', () => {
      throw new TypeError('Failed to fetch');
    });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const el = await widget(backend, `order='{"sku":"offline"}'`, { waitFor: 'payment-error' });
      expect(text(el)).to.include('Check your connection');
      // The console's words are a part the widget loads when it has something to say: once it
      // is here, and a task later, anything said is said.
      await import('../../../src/widget/parts/diagnostics.ts');
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(console_.said).to.deep.equal([]);
    } finally {
      Reflect.deleteProperty(navigator, 'onLine');
    }
  });

  it('neither order nor checkout-id a few seconds after the page loaded: a warning saying what to do', async function () {
    this.timeout(scaled(MISSING_AFTER_MS * 4));
    const el = await made(() => {}, 'payment-error');
    await until('the warning', () => console_.said.length > 0);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(/^warn: payment-widget: no checkout-id and no order/);
    expect(console_.said[0]).to.include('checkout-id');
    expect(text(el)).to.include('missing its checkout');
  });

  it('an object a server render wrote as order="[object Object]": no create from it, and a warning saying what to do', async function () {
    this.timeout(scaled(MISSING_AFTER_MS * 4));
    const el = await widget(backend, 'order="[object Object]"', { waitFor: 'payment-error' });
    await until('the warning', () => console_.said.length > 0);
    expect(backend.calls).to.deep.equal([]);
    expect(console_.said).to.have.length(1);
    expect(console_.said[0]).to.match(/^warn: payment-widget: order="\[object Object\]"/);
    expect(console_.said[0]).to.include('JSON.stringify');
    // Where else it comes from: Preact writes an object as the attribute of an element not yet
    // defined (a lazy import).
    expect(console_.said[0]).to.include('a framework before the element was defined');
    // Set by the page's script after all: it loads.
    const ready = oneEvent(el, 'payment-ready');
    el.order = { sku: 'late' };
    await ready;
    expect(backend.calls[0]?.body).to.deep.equal({ order: { sku: 'late' } });
    expect($(el, 'button[part~=button]').textContent).to.include('Pay');
  });
});
