// A checkout made to save the card (the merchant's resolveCheckout returned purpose
// SETUP_RECURRING_PAYMENT, with the customer to save it to): the provider pays it only with
// the card saved, so the widget does not ask, whatever the page's `save-card` says. It says
// the card will be saved, sends a new card with a mandate, and offers a card alone.
import { expect, oneEvent } from '@open-wc/testing';
import { CheckoutProcessBodySchema } from '../../../src/schemas/index.ts';
import { $, FakeBackend, fillCard, text, widget } from './fake-backend.ts';

const SAYS = 'This card will be saved for future payments.';

describe('payment-widget: a checkout made to save the card', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
    backend.checkout = {
      ...backend.checkout,
      purpose: 'SETUP_RECURRING_PAYMENT',
      customer_id: 'cus_1',
      redirect_url: 'https://shop.example/return',
    };
    backend.methods = ['card', 'ideal', 'bancontact'];
  });
  afterEach(() => backend.restore());

  /** Pays the card on the form; the process body sent. */
  async function pay(el: Awaited<ReturnType<typeof widget>>) {
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    void el.submit();
    await success;
    const body = backend.puts()[0]?.body as Record<string, unknown>;
    expect(CheckoutProcessBodySchema.safeParse(body).success).to.equal(true);
    return body;
  }

  for (const attributes of ['save-card', '']) {
    it(`says the card will be saved instead of asking, and saves it (${attributes || 'no save-card'})`, async () => {
      const el = await widget(
        backend,
        `checkout-id="chk_1" payment-methods="card ideal bancontact" ${attributes}`,
      );
      // Compared as a boolean: chai's message for an element found would print the element.
      expect(el.shadowRoot!.querySelector('#save') === null, 'no box to tick').to.equal(true);
      expect($(el, '[part~=save-card]').textContent?.trim()).to.equal(SAYS);
      // A card alone: the handler is asked for what pays a checkout of this purpose.
      const asked = backend.calls.find((c) => c.path === '/payment-methods');
      expect(asked?.query.get('purpose')).to.equal('SETUP_RECURRING_PAYMENT');
      expect(
        el.shadowRoot!.querySelector('input[name=method]') === null,
        'no other method',
      ).to.equal(true);
      await expect(el).to.be.accessible();
      const body = await pay(el);
      expect(body.mandate).to.deep.equal({ type: 'recurrent', user_agent: navigator.userAgent });
    });
  }

  it('pays a saved card by its token, and says so again for a new card', async () => {
    backend.instruments = [{ token: 'tok_1', card: { last_4_digits: '0091', type: 'VISA' } }];
    const el = await widget(backend, 'checkout-id="chk_1" customer-id="cus_1" save-card');
    expect(text(el)).to.include('VISA ending in 0091').and.not.include(SAYS);
    el.shadowRoot!.querySelector<HTMLInputElement>('input[name=saved][value=""]')!.click();
    await el.updateComplete;
    expect(text(el)).to.include(SAYS);
    expect(el.shadowRoot!.querySelector('#save') === null, 'no box to tick').to.equal(true);
  });

  it('says it in the shopper’s language', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"');
    expect($(el, '[part~=save-card]').textContent?.trim()).to.equal(
      'Diese Karte wird für künftige Zahlungen gespeichert.',
    );
  });

  it('still asks on a checkout that pays, where the box is offered', async () => {
    backend.checkout = { ...backend.checkout, purpose: 'CHECKOUT' };
    const el = await widget(backend, 'checkout-id="chk_1" save-card');
    expect(text(el)).not.to.include(SAYS);
    const body = await pay(el);
    expect(body).not.to.have.property('mandate');
  });
});
