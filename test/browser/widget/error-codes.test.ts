// The error contract, code by code: whatever the handler answers a payment with, the
// merchant's page reads the same code and the same `retryable` in `payment-error` — the
// server decides, the widget passes it on. The bodies come from the handler's own function.
import { expect, oneEvent } from '@open-wc/testing';
import { HANDLER_ERRORS, type HandlerErrorCode } from '../../../src/domain/errors.ts';
import { en } from '../../../src/widget/locales/en.ts';
import { ROUTES } from '../../shared/handler-answers.ts';
import { $, errorReply, FakeBackend, fillCard, widget } from './fake-backend.ts';

describe('payment-widget: every handler error code reaches payment-error unchanged', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  const route = (name: string): readonly HandlerErrorCode[] =>
    ROUTES.find((r) => r.name === name)?.errors ?? [];
  const paying = route('PUT /checkouts/:id');
  const creating = route('POST /checkouts');
  const all = Object.keys(HANDLER_ERRORS) as HandlerErrorCode[];
  /** The handler's answer with `code`, as it sends it (a 429 with its Retry-After). */
  const answer = (code: HandlerErrorCode, status: number, message: string) =>
    errorReply(status, code, message, {
      ...(status === 429 ? { headers: { 'retry-after': '60' } } : {}),
    });

  // Each code the handler answers a payment with, on the payment.
  for (const code of paying) {
    const { status, retryable } = HANDLER_ERRORS[code];
    it(`${code} (${status}) on the payment: code and retryable ${retryable}`, async () => {
      backend.process = () => answer(code, status, `the handler says ${code}`);
      const el = await widget(backend, 'checkout-id="chk_1"');
      await fillCard(el);
      const error = oneEvent(el, 'payment-error');
      $(el, 'button[part~=button]').click();
      const { detail } = await error;
      expect(detail.code).to.equal(code);
      expect(detail.retryable).to.equal(retryable);
      expect(detail.message).to.equal(`the handler says ${code}`);
      // Whatever the error, the checkout was read back or kept: never a payment shown twice.
      expect(backend.puts()).to.have.length(1);
    });
  }

  // Those it answers only the creation of a checkout with, on the creation.
  for (const code of creating.filter((c) => !paying.includes(c))) {
    const { status, retryable } = HANDLER_ERRORS[code];
    it(`${code} (${status}) on the creation: code and retryable ${retryable}`, async () => {
      backend.overrides.set('POST /checkouts', () =>
        answer(code, status, `the handler says ${code}`),
      );
      const error = new Promise<CustomEvent>((resolve) => {
        document.addEventListener('payment-error', (e) => resolve(e as CustomEvent), {
          once: true,
        });
      });
      await widget(backend, `order='{"sku":"tea"}'`, { waitFor: 'payment-error' });
      const { detail } = await error;
      expect(detail).to.include({ code, retryable, message: `the handler says ${code}` });
    });
  }

  // The rest never reach the widget from the handler (the webhook's, the node adapter's):
  // from a backend of the merchant's own, they are passed on all the same.
  for (const code of all.filter((c) => !paying.includes(c) && !creating.includes(c))) {
    const { status, retryable } = HANDLER_ERRORS[code];
    it(`${code} (${status}) from a backend of the merchant’s own: passed on`, async () => {
      backend.process = () => ({
        ...errorReply(status, code, `the backend says ${code}`),
        notFromHandler: 'a backend of the merchant’s own, sending a code of the handler’s',
      });
      const el = await widget(backend, 'checkout-id="chk_1"');
      await fillCard(el);
      const error = oneEvent(el, 'payment-error');
      $(el, 'button[part~=button]').click();
      expect((await error).detail).to.include({ code, retryable });
    });
  }

  it('an error answer that is not the handler’s is BACKEND_ERROR, retryable for a 5xx', async () => {
    backend.process = () => ({
      status: 503,
      body: '<html>Service Unavailable</html>',
      notFromHandler: 'a proxy in front of the handler',
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ code: 'BACKEND_ERROR', retryable: true });
  });

  it('a code named like an object’s own property (constructor) reads as the backend’s error', async () => {
    backend.process = () => ({
      ...errorReply(400, 'constructor' as HandlerErrorCode, 'odd'),
      notFromHandler: 'a backend of the merchant’s own, with codes of its own',
    });
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail.code).to.equal('constructor');
    await el.updateComplete;
    expect($(el, '.status').textContent).to.equal(en.errBackend);
  });
});
