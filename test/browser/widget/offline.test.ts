// The shopper's browser goes offline while "Processing…" shows, after the answer to Pay opened
// a step (a 3DS challenge, a boleto's voucher): either the answer came but the step's part
// could not (a request already on its way completes; the part is a file asked for only now),
// or the answer and every read-back were lost. The widget says it could not reach the
// payment service, the page hears payment-error, and back online the step shows by itself,
// as after a reload; nothing is paid twice.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { TIMEOUT_MS } from '../../../src/widget/checkout/backend.ts';
import { READ_BACK_MS } from '../../../src/widget/checkout/read-back.ts';
import { PARTS } from '../../../src/widget/parts/imports.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillBoletoPayer, fillCard, paste, text, widget } from './fake-backend.ts';

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = { url: ACS, method: 'GET', payload: { PaReq: 'pareq-1', MD: 'md-1' } };

/** The challenge `challenge` (its payment-challenge event) announced, in its frame, the form gone. */
async function challengeShown(el: PaymentWidget, challenge: Promise<CustomEvent>): Promise<void> {
  expect((await challenge).detail).to.deep.equal({ mode: 'iframe', url: ACS });
  await until('the challenge in its frame', () => Boolean(el.shadowRoot?.querySelector('iframe')));
  expect($(el, 'form').hidden).to.equal(true);
}

const unreachable = 'We could not reach the payment service. Check your connection and try again.';

describe('payment-widget: offline after Pay opened a step', () => {
  let backend: FakeBackend;
  const savedTimeouts = { ...TIMEOUT_MS };
  const savedReadBack = { ...READ_BACK_MS };
  const loadStep = PARTS.step;
  beforeEach(() => {
    backend = new FakeBackend();
    TIMEOUT_MS.read = 300;
    READ_BACK_MS.total = 600;
  });
  afterEach(() => {
    backend.restore();
    PARTS.step = loadStep;
    Object.assign(TIMEOUT_MS, savedTimeouts);
    Object.assign(READ_BACK_MS, savedReadBack);
  });

  it('a challenge asked for as the browser went offline, its part unreachable: payment-error and "Try again"; back online, the challenge shows by itself', async () => {
    backend.asksFor(CHALLENGE);
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const said: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => said.push(args.join(' '));
    PARTS.step = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    try {
      const error = oneEvent(el, 'payment-error');
      $(el, 'button[part~=button]').click();
      // Before: the shopper read that the service could not be reached, and the page heard nothing.
      expect((await error).detail).to.include({ code: 'NETWORK_ERROR', retryable: true });
      await el.updateComplete;
      expect($(el, '[part~=status]').textContent?.trim()).to.equal(unreachable);
      expect(text(el)).to.include('Try again');
    } finally {
      console.error = consoleError;
    }
    expect(said.some((line) => line.includes('"step" part could not load'))).to.equal(true);

    // Back online: the part comes, and the challenge the checkout holds shows, with no click.
    PARTS.step = loadStep;
    const challenge = oneEvent(el, 'payment-challenge');
    window.dispatchEvent(new Event('online'));
    await challengeShown(el, challenge);
    expect(text(el)).not.to.include('Try again');
    expect(backend.puts()).to.have.length(1);
  });

  /**
   * The browser offline from the moment Pay is sent: the process request reaches the backend,
   * which does what `backend.process` does, but its answer never comes back, nor that of any
   * read of the checkout, until the function returned brings the browser back online.
   */
  const offlineOncePaid = (): (() => void) => {
    const process = backend.process;
    let down = false;
    backend.overrides.set('PUT /checkouts/chk_1', () => {
      void process(undefined);
      down = true;
      throw new TypeError('Failed to fetch');
    });
    backend.overrides.set('GET /checkouts/chk_1', () => {
      if (down) throw new TypeError('Failed to fetch');
      return { status: 200, body: backend.checkout };
    });
    return () => {
      down = false;
      window.dispatchEvent(new Event('online'));
    };
  };

  it('a challenge asked for, its answer and every read-back lost offline: back online, the challenge shows by itself', async () => {
    backend.asksFor(CHALLENGE);
    const online = offlineOncePaid();
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=button]').click();
    expect((await error).detail).to.include({ code: 'NETWORK_ERROR', retryable: true });

    // Before: "We could not reach the payment service" and Pay stayed, the challenge unseen.
    const challenge = oneEvent(el, 'payment-challenge');
    online();
    await challengeShown(el, challenge);
    expect(backend.puts()).to.have.length(1);
  });

  it('a boleto issued, its answer and every read-back lost offline: back online, its voucher shows, pending', async () => {
    backend.issuesBoleto(['boleto']);
    const online = offlineOncePaid();
    const el = await widget(backend, 'checkout-id="chk_1"');
    fillBoletoPayer(el);
    paste($(el, '#taxId'), '123.456.789-09');
    const error = oneEvent(el, 'payment-error');
    void el.submit();
    expect((await error).detail).to.include({ code: 'NETWORK_ERROR', retryable: true });

    // Before: the form and Pay stayed; pressing Pay was the only way to the voucher.
    const pending = oneEvent(el, 'payment-pending');
    online();
    await pending;
    await el.updateComplete;
    expect(text(el)).to.include('Payment pending').and.include('12345 67890');
    expect(backend.puts()).to.have.length(1);
  });
});
