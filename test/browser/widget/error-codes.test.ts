// The error contract, code by code: whatever the handler answers a payment with, the
// merchant's page reads the same code and the same `retryable` in `payment-error` — the
// server decides, the widget passes it on. The bodies come from the handler's own function.
import { expect, oneEvent } from '@open-wc/testing';
import { HANDLER_ERRORS, type HandlerErrorCode } from '../../../src/domain/errors.ts';
import { en } from '../../../src/widget/locales/en.ts';
import { $, errorReply, FakeBackend, fillCard, widget } from './fake-backend.ts';

describe('payment-widget: every handler error code reaches payment-error unchanged', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  const codes = Object.entries(HANDLER_ERRORS) as [
    HandlerErrorCode,
    { status: number; retryable: boolean },
  ][];

  for (const [code, { status, retryable }] of codes) {
    it(`${code} (${status}): code and retryable ${retryable}`, async () => {
      backend.process = () => errorReply(status, code, `the handler says ${code}`);
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
