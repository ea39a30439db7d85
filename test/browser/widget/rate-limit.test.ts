// Over the handler's rate limit: the answer is a 429 TOO_MANY_REQUESTS with Retry-After (the
// body built by the handler's own function). The shopper reads, in their language, how long
// to wait; the merchant's page gets the code and `retryable: false`; nothing offers to try
// again at once.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { $, errorReply, FakeBackend, fillCard, widget } from './fake-backend.ts';

const tooMany = (retryAfter?: string) =>
  errorReply(429, 'TOO_MANY_REQUESTS', 'Too many payment attempts from this client', {
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
  });

const status = (el: PaymentWidget) =>
  el.shadowRoot?.querySelector('[part~=status]')?.textContent?.trim() ?? '';

describe('payment-widget: over the rate limit', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  async function payAndFail(el: PaymentWidget) {
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    const { detail } = await error;
    await el.updateComplete;
    return detail;
  }

  it('a refused payment says how long to wait and is not retryable', async () => {
    backend.process = () => tooMany('90');
    const el = await widget(backend, 'checkout-id="chk_1"');
    const detail = await payAndFail(el);
    expect(detail.code).to.equal('TOO_MANY_REQUESTS');
    expect(detail.retryable).to.equal(false);
    expect(detail.message).to.equal('Too many payment attempts from this client');
    // 90 seconds, rounded up to whole minutes: never earlier than the handler allows.
    expect(status(el)).to.equal('Too many payment attempts. Try again in 2\u00a0min.');
    // Not read back or retried behind the shopper's back.
    expect(backend.puts()).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('says it in the shopper’s language', async () => {
    backend.process = () => tooMany('300');
    const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"');
    await payAndFail(el);
    expect(status(el)).to.equal(
      'Zu viele Zahlungsversuche. Versuchen Sie es in 5\u00a0Min. erneut.',
    );
  });

  it('a checkout the widget could not create: no retry button, the wait in French', async () => {
    backend.overrides.set('POST /checkouts', () => tooMany('600'));
    const el = await widget(backend, `order='{"sku":"tea"}' locale="fr-FR"`, {
      waitFor: 'payment-error',
    });
    expect(status(el)).to.equal('Trop de tentatives de paiement. Réessayez dans 10\u00a0min.');
    expect(el.shadowRoot?.querySelector('button[part~=retry]')).to.equal(null);
    expect(el.shadowRoot?.textContent).not.to.include('Réessayer');
  });

  it('a 429 without Retry-After (not the handler’s contract) shows the generic error', async () => {
    backend.process = () => ({
      ...tooMany(),
      notFromHandler: 'a backend of the merchant’s own (the handler always sends Retry-After)',
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    const detail = await payAndFail(el);
    expect(detail).to.include({ code: 'TOO_MANY_REQUESTS', retryable: false });
    expect(status(el)).to.equal('The payment could not be processed.');
  });
});
