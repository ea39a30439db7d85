import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { MISSING_AFTER_MS } from '../../../src/widget/arrival.ts';
import { $, FakeBackend, fillCard, text, widget } from './fake-backend.ts';

describe('payment-widget: loading and rendering', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('loads the checkout and shows labelled card fields and the amount on the button', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    await expect(el).to.be.accessible();
    expect(backend.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal([
      'GET /checkouts/chk_1',
      'GET /payment-methods',
    ]);
    expect(backend.calls[1]?.query.get('amount')).to.equal('10');
    expect(backend.calls[1]?.query.get('currency')).to.equal('EUR');
    const labels = [...el.shadowRoot!.querySelectorAll('label[for]')].map((l) =>
      l.textContent?.trim(),
    );
    expect(labels).to.deep.equal(['Card number', 'Expiry date', 'Security code', 'Name on card']);
    expect($(el, 'button[part~=button]').textContent?.trim()).to.equal('Pay €10.00');
  });

  it('gives every card input its autocomplete token and a numeric keyboard where digits go', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" show-zip-code show-email');
    const ac = (id: string) => $(el, `#${id}`).getAttribute('autocomplete');
    const im = (id: string) => $(el, `#${id}`).getAttribute('inputmode');
    expect([
      ac('number'),
      ac('expiry'),
      ac('cvv'),
      ac('name'),
      ac('zip'),
      ac('email'),
    ]).to.deep.equal(['cc-number', 'cc-exp', 'cc-csc', 'cc-name', 'postal-code', 'email']);
    expect([im('number'), im('expiry'), im('cvv'), im('zip')]).to.deep.equal([
      'numeric',
      'numeric',
      'numeric',
      'numeric',
    ]);
    // The email field's type is what brings a phone's email keyboard (an inputmode of email
    // says it again, and type=email already checks the address as the browser reads it).
    expect(($(el, '#email') as HTMLInputElement).type).to.equal('email');
    expect(im('email')).to.equal(null);
  });

  it('keeps digits in their order on a right-to-left page: "12 / 30" never reads "30 / 12"', async () => {
    document.documentElement.dir = 'rtl';
    try {
      const el = await widget(backend, 'checkout-id="chk_1" show-zip-code');
      const direction = (id: string) => getComputedStyle($(el, `#${id}`)).direction;
      expect(['number', 'expiry', 'cvv', 'zip'].map(direction)).to.deep.equal([
        'ltr',
        'ltr',
        'ltr',
        'ltr',
      ]);
      // A name is written in the page's direction.
      expect(direction('name')).to.equal('rtl');
      await expect(el).to.be.accessible();
    } finally {
      document.documentElement.removeAttribute('dir');
    }
  });

  it('shows zip, email and installments only when asked, installments up to max-installments', async () => {
    const plain = await widget(backend, 'checkout-id="chk_1"');
    expect(plain.shadowRoot!.querySelector('#zip, #email, #installments')).to.equal(null);
    const el = await widget(
      backend,
      'checkout-id="chk_1" show-zip-code show-email show-installments max-installments="6"',
    );
    await expect(el).to.be.accessible();
    expect(text(el)).to.include('ZIP code').and.include('Email').and.include('Installments');
    const options = [...el.shadowRoot!.querySelectorAll('#installments option')].map(
      (o) => o.textContent,
    );
    expect(options).to.deep.equal(['1', '2', '3', '4', '5', '6']);
  });

  it('formats the amount in the locale and reads "Donate" with donate', async () => {
    backend.checkout = { ...backend.checkout, amount: 1234.5, currency: 'BRL' };
    const el = await widget(backend, 'checkout-id="chk_1" donate');
    expect($(el, 'button[part~=button]').textContent?.trim()).to.equal('Donate R$1,234.50');
  });

  it('creates the checkout from order when no checkout-id is given', async () => {
    const el = await widget(backend, `order='{"sku":"tee","qty":2}'`);
    expect(backend.calls[0]).to.include({ method: 'POST', path: '/checkouts' });
    expect(backend.calls[0]?.body).to.deep.equal({ order: { sku: 'tee', qty: 2 } });
    expect(text(el)).to.include('Pay €10.00');
  });

  it('offers only the methods both the attribute and the backend allow, as a radio group', async () => {
    backend.methods = ['card', 'ideal', 'blik', 'boleto'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    const el = await widget(backend, 'checkout-id="chk_1" payment-methods="card ideal bancontact"');
    const radios = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name=method]')];
    expect(radios.map((r) => r.value)).to.deep.equal(['card', 'ideal']);
    expect(radios[0]?.checked).to.equal(true);
    expect(el.shadowRoot!.querySelector('fieldset legend')?.textContent).to.equal('Payment method');
    await expect(el).to.be.accessible();
  });

  it('offers no bank method on a checkout without a redirect_url (its page could not return)', async () => {
    backend.methods = ['card', 'ideal', 'bancontact', 'blik', 'boleto'];
    const el = await widget(backend, 'checkout-id="chk_1"');
    const radios = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name=method]')];
    expect(radios.map((r) => r.value)).to.deep.equal(['card', 'boleto']);
  });

  it('emits payment-ready with the offered methods once the fields are rendered', async () => {
    backend.methods = ['boleto', 'card', 'blik'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    let detail: unknown;
    let fieldsThere = false;
    document.addEventListener(
      'payment-ready',
      (e) => {
        detail = e.detail;
        fieldsThere = (e.target as HTMLElement).shadowRoot?.querySelector('#number') !== null;
      },
      { once: true },
    );
    await widget(backend, 'checkout-id="chk_1"');
    expect(detail).to.deep.equal({ paymentMethods: ['card', 'blik', 'boleto'] });
    expect(fieldsThere).to.equal(true);
  });

  it('shows no method choice when card is the only one', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    expect(el.shadowRoot!.querySelector('input[name=method]')).to.equal(null);
  });

  it('hides the button with no-submit-button', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" no-submit-button');
    expect($(el, 'button[part~=button]').hidden).to.equal(true);
  });

  // A checkout form around the widget (its address fields), as merchants write it.
  for (const button of [true, false]) {
    it(`in the page's form, Enter in a card field ${button ? 'pays, with the button shown' : 'submits the page’s form, with no-submit-button'}`, async () => {
      const el = await widget(backend, `checkout-id="chk_1"${button ? '' : ' no-submit-button'}`);
      const form = document.createElement('form');
      el.before(form);
      form.append(el);
      let submitted = 0;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted += 1;
      });
      await fillCard(el);
      $(el, '#cvv').focus();
      const paying = button ? oneEvent(el, 'payment-submit') : undefined;
      await sendKeys({ press: 'Enter' });
      // Without the button the page pays (its submit handler calls submit()), its own checks
      // first: Enter paid nothing behind its back.
      expect(submitted).to.equal(button ? 0 : 1);
      await paying;
      await el.updateComplete;
      expect(backend.calls.some((c) => c.method === 'PUT')).to.equal(button);
      form.replaceWith(el);
    });
  }

  it('says what is wrong, and can retry, when the checkout cannot be loaded', async () => {
    let fail = true;
    backend.overrides.set('GET /checkouts/chk_1', () => {
      if (fail) throw new TypeError('Failed to fetch');
      return { status: 200, body: backend.checkout };
    });
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-error' });
    expect(text(el)).to.include('could not reach the payment service');
    await expect(el).to.be.accessible();
    fail = false;
    $(el, 'button[part~=retry]').click();
    await new Promise((r) => el.addEventListener('payment-ready', r, { once: true }));
    expect(text(el)).to.include('Pay €10.00');
  });

  it('reports a missing checkout as an error that retrying does not fix', async function () {
    // Only once the page has loaded and had time to hydrate (arrival.test.ts).
    this.timeout(MISSING_AFTER_MS * 4);
    const errors: CustomEvent[] = [];
    document.addEventListener('payment-error', (e) => errors.push(e), { once: true });
    const el = await widget(backend, '', { waitFor: 'payment-error' });
    expect(errors[0]?.detail).to.deep.include({ code: 'MISSING_CHECKOUT', retryable: false });
    expect(text(el)).to.include('missing its checkout');
    expect(el.shadowRoot!.querySelector('[part~=retry]')).to.equal(null);
  });

  describe('its size', () => {
    /** What a shopper sees of the card form's size: text, field and button heights, gaps. */
    async function drawn(attributes = '') {
      backend.methods = ['card', 'ideal'];
      backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
      const el = await widget(
        backend,
        `checkout-id="chk_1" payment-methods="card ideal" ${attributes}`,
      );
      const box = (selector: string) => $(el, selector).getBoundingClientRect();
      const size = {
        text: getComputedStyle($(el, '#number')).fontSize,
        label: getComputedStyle($(el, 'label[for=number]')).fontSize,
        legend: box('legend').height,
        field: box('#number').height,
        choice: box('.choices .choice').height,
        button: box('button[part~=button]').height,
        gap: box('#expiry').top - box('#number').bottom,
      };
      el.remove();
      return size;
    }

    it('is the shopper’s font size, not the page root’s: a theme’s html { font-size: 62.5% } draws the same form', async () => {
      const usual = await drawn();
      expect(usual.text).to.equal('16px');
      document.documentElement.style.fontSize = '62.5%';
      try {
        // Before: 10px text in 28 px fields, which a phone zooms into on focus.
        expect(await drawn()).to.deep.equal(usual);
      } finally {
        document.documentElement.style.fontSize = '';
      }
    });

    it('is the same for a merchant’s --payment-widget-font-family: monospace', async () => {
      const usual = await drawn();
      // Before: 13px, the browser's size for monospace alone.
      expect((await drawn('style="--payment-widget-font-family: monospace"')).text).to.equal(
        usual.text,
      );
    });

    it('follows --payment-widget-font-size, spaces included', async () => {
      const usual = await drawn();
      const larger = await drawn('style="--payment-widget-font-size: 20px"');
      expect([larger.text, larger.label]).to.deep.equal(['20px', '17.5px']);
      for (const key of ['field', 'choice', 'button', 'gap'] as const) {
        expect(larger[key], key).to.be.closeTo(usual[key] * 1.25, 1);
      }
    });
  });

  it('starts its labels, hints and messages where their fields start on a page that centres its text', async () => {
    document.body.style.textAlign = 'center';
    try {
      const el = await widget(backend, 'checkout-id="chk_1"');
      const invalid = oneEvent(el, 'payment-invalid');
      $(el, 'button[part~=button]').click();
      await invalid;
      await el.updateComplete;
      const left = (node: Element) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return range.getBoundingClientRect().left;
      };
      const field = $(el, '#expiry').getBoundingClientRect().left;
      // Before: each centred over its field, the hint 30 px in.
      for (const selector of ['label[for=expiry]', '#expiry-hint', '#expiry-error']) {
        const node = el.shadowRoot!.querySelector(selector);
        expect(node, selector).to.not.equal(null);
        expect(left(node!), selector).to.be.closeTo(field, 1);
      }
      expect(left($(el, '[part~=status]'))).to.be.closeTo(
        $(el, 'form').getBoundingClientRect().left,
        1,
      );
    } finally {
      document.body.style.textAlign = '';
    }
  });

  it('fits 320 px without horizontal scrolling', async () => {
    backend.methods = ['card', 'ideal', 'bancontact', 'blik', 'boleto'];
    const el = await widget(
      backend,
      'checkout-id="chk_1" show-zip-code show-email show-installments',
    );
    el.style.width = '320px';
    await el.updateComplete;
    const form = $(el, 'form');
    expect(form.scrollWidth).to.be.at.most(320);
    for (const input of el.shadowRoot!.querySelectorAll('input, select, button')) {
      expect(input.getBoundingClientRect().right).to.be.at.most(
        el.getBoundingClientRect().right + 0.5,
      );
    }
  });
});
