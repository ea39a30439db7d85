// A part of the widget that the shopper needs and that cannot load (src/widget/parts/): the
// shopper always reads why, with a way on ("Try again" where another try can help), and the
// page hears one payment-error for it, with the code and `retryable` of what happened. No
// answer (offline: the browser's rejection stands in, as no runner takes every engine
// offline) and a real 404 give NETWORK_ERROR, retryable; a loader that throws
// (./refused-loader.ts) stops the widget with UNEXPECTED, not retryable, and nothing else.
// (A part whose bytes are not the ones built is the self-contained builds':
// test/engines/page-security.test.ts.) A file that failed is asked for again under a URL the
// browser has not seen: Firefox keeps a module's failure for its URL, for the page's life.
import { expect, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PaymentWidget } from '../../../src/index.ts';
import { besideBundle } from '../../../src/shared/bundle-url.ts';
import type { PaymentErrorDetail } from '../../../src/widget/events.ts';
import { importChecked } from '../../../src/widget/parts/checked-import.ts';
import { PARTS } from '../../../src/widget/parts/imports.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillCard, text, widget } from './fake-backend.ts';
import { refusedLoader } from './refused-loader.ts';

const unreachable = 'We could not reach the payment service. Check your connection and try again.';

/** A file the test runner does not have: importing it gets a real 404. */
const MISSING = new URL('./no-such-part.ts', import.meta.url).href;

/** How a part fails to arrive: no answer (offline), or a 404 the browser really gets. */
const FAILURES = {
  offline: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  '404': () => import(/* @vite-ignore */ MISSING),
} as const;

/** The ACS page stand-in that web-test-runner serves, for a challenge asked for. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = { url: ACS, method: 'GET', payload: { PaReq: 'pareq-1', MD: 'md-1' } };

describe('payment-widget: a part it needs cannot load', () => {
  let backend: FakeBackend;
  const saved = { ...PARTS };
  const consoleError = console.error;
  /** Every payment-error the page heard, as it heard them. */
  let errors: PaymentErrorDetail[] = [];
  const heard = (event: Event) => errors.push((event as CustomEvent<PaymentErrorDetail>).detail);

  beforeEach(() => {
    backend = new FakeBackend();
    errors = [];
    document.addEventListener('payment-error', heard);
    // Each failure is said in the console, on purpose: kept out of the runner's output.
    console.error = () => {};
  });
  afterEach(() => {
    document.removeEventListener('payment-error', heard);
    console.error = consoleError;
    Object.assign(PARTS, saved);
    backend.restore();
  });

  const button = (el: PaymentWidget) => $(el, 'button[part~=button]');
  const status = (el: PaymentWidget) => $(el, '[part~=status]').textContent?.trim();

  /**
   * The shopper reads that the service could not be reached, Pay is Pay again (not busy),
   * "Try again" is there, and the page heard one payment-error, NETWORK_ERROR, retryable.
   */
  async function saidOnce(el: PaymentWidget): Promise<void> {
    await until(
      () => `a payment-error (heard ${errors.length})`,
      () => errors.length > 0,
    );
    await el.updateComplete;
    expect(status(el)).to.equal(unreachable);
    expect(button(el).textContent?.trim()).to.match(/^Pay /);
    expect(button(el).getAttribute('aria-disabled')).to.equal('false');
    expect($(el, 'button[part~=retry]').textContent?.trim()).to.equal('Try again');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ code: 'NETWORK_ERROR', retryable: true });
  }

  /** Back online: "Try again" brings the part, and Pay pays, once. */
  async function paysOnceItComes(el: PaymentWidget, pay = saved.pay): Promise<void> {
    PARTS.pay = pay;
    $(el, 'button[part~=retry]').click();
    await until('the pay part in, its message gone', async () => {
      await el.updateComplete;
      return status(el) === '' && !text(el).includes('Try again');
    });
    const success = oneEvent(el, 'payment-success');
    button(el).click();
    await success;
    expect(backend.puts()).to.have.length(1);
    expect(errors).to.have.length(1);
  }

  for (const [how, fail] of Object.entries(FAILURES)) {
    it(`the pay part, ${how}, failed before Pay: Pay says so once, and "Try again" then pays`, async () => {
      PARTS.pay = fail;
      const el = await widget(backend, 'checkout-id="chk_1"');
      await fillCard(el);
      // Nothing said yet: the shopper has not needed it.
      expect(errors).to.have.length(0);
      button(el).click();
      // Before: the message and "Try again", and the page heard nothing.
      await saidOnce(el);
      // Pressed again while it is still missing: the shopper reads the same, the page hears
      // nothing more.
      button(el).click();
      await until('the second press answered', async () => {
        await el.updateComplete;
        return button(el).getAttribute('aria-disabled') === 'false';
      });
      expect(errors).to.have.length(1);
      await paysOnceItComes(el);
    });

    it(`the pay part, ${how}, failing after Pay was pressed before it came: Pay is Pay again, and says so once`, async () => {
      let arrive = () => {};
      const held = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      PARTS.pay = () => held.then(fail);
      const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
      await until('the form drawn', () => el.shadowRoot?.querySelector('form')?.inert === false);
      await fillCard(el);
      button(el).click();
      await el.updateComplete;
      expect(button(el).textContent?.trim()).to.equal('Processing…');
      arrive();
      // Before: the message and "Try again", and the page heard nothing.
      await saidOnce(el);
      expect(backend.puts()).to.have.length(0);
      await paysOnceItComes(el);
    });
  }

  it('the pay part loaded as the self-contained builds load it (checked), a 404 and then there: "Try again" brings it, and Pay pays', async () => {
    // Served by the runner (scripts/wtr-flaky-part.mjs): two 404s, then these bytes.
    const url = besideBundle('./flaky-part.js');
    const body = "export * from '/src/widget/parts/pay.ts';";
    const digest = await crypto.subtle.digest('SHA-384', new TextEncoder().encode(body));
    const integrity = `sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`;
    await executeServerCommand('flaky-part', { fails: 2, body });
    const asked = async () =>
      (await executeServerCommand<{ asked: string[] }, never>('flaky-part')).asked.map(
        (at) => new URL(at, url).search,
      );
    const checked = () =>
      importChecked<typeof import('../../../src/widget/parts/pay.ts')>(url, integrity);
    PARTS.pay = checked;
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    // The widget asks for the part once the form is drawn, before the shopper needs it.
    await until('the part asked for', async () => (await asked()).length === 1);
    button(el).click();
    await saidOnce(el);
    // Before, in Firefox: Pay and "Try again" asked for nothing (its module map kept the 404
    // for the URL), and the shopper read the same message for good.
    await paysOnceItComes(el, checked);
    expect(await asked()).to.deep.equal(['', '?retry=1', '?retry=2']);
  });

  it('the pay part cannot load, the checkout already paid (back from the bank): "Try again", and one payment-error', async () => {
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    PARTS.pay = FAILURES.offline;
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
    // Before: the message and "Try again", and the page heard nothing.
    await until(
      () => `a payment-error (heard ${errors.length})`,
      () => errors.length > 0,
    );
    await el.updateComplete;
    expect(status(el)).to.equal(unreachable);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ code: 'NETWORK_ERROR', retryable: true });
    PARTS.pay = saved.pay;
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=retry]').click();
    await success;
    expect(errors).to.have.length(1);
  });

  it('the checkout unreachable and the pay part too: one payment-error', async () => {
    backend.overrides.set('GET /checkouts/chk_1', () => {
      throw new TypeError('Failed to fetch');
    });
    PARTS.pay = FAILURES.offline;
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-error' });
    // The load over, with nothing to pay (the form gone): all it would say, it has said.
    await until('the form gone', async () => {
      await el.updateComplete;
      return $(el, 'form').hidden === true;
    });
    expect(status(el)).to.equal(unreachable);
    expect(text(el)).to.include('Try again');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ code: 'NETWORK_ERROR', retryable: true });
  });

  it('the step part, a real 404: the form payable again, and one payment-error', async () => {
    backend.asksFor(CHALLENGE);
    PARTS.step = FAILURES['404'];
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    button(el).click();
    await saidOnce(el);
    expect(backend.puts()).to.have.length(1);
  });

  it('the step part’s loader throws (Trusted Types): the widget stops, and the page hears UNEXPECTED alone', async () => {
    backend.asksFor(CHALLENGE);
    const refused = refusedLoader();
    PARTS.step = refused.load;
    const el = await widget(backend, 'checkout-id="chk_1"');
    await fillCard(el);
    const said = oneEvent(el, 'payment-error');
    button(el).click();
    expect((await said).detail).to.include({ code: 'UNEXPECTED', retryable: false });
    await until('the widget stopped', async () => {
      await el.updateComplete;
      return text(el) === 'The payment form could not be loaded';
    });
    // The step's wait is over once the widget has stopped: a frame on, nothing more is heard.
    await new Promise(requestAnimationFrame);
    await el.updateComplete;
    // Before: NETWORK_ERROR, retryable, after it, for a "Try again" that could not work.
    expect(errors.map((e) => e.code)).to.deep.equal(['UNEXPECTED']);
    expect(refused.asked()).to.equal(1);
  });
});
