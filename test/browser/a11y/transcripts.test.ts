// What a screen-reader user hears, in order, in each state of a card payment: moving
// through the form, a submit refused for invalid fields, processing, declined, paid, and
// a 3-D Secure challenge opening. Each transcript is compared with the one committed in
// transcripts/<state>.txt (transcripts/<state>.<engine>.txt where an engine differs);
// CONTRIBUTING.md says how to update them.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, fillCard, paste, type Reply, widget } from '../widget/fake-backend.ts';
import { Listener, tabStops } from './listener.ts';

/** The page's own fetch: the fake backend replaces window.fetch while a test runs. */
const pageFetch = window.fetch.bind(window);
const DIR = new URL('/test/browser/a11y/transcripts/', location.href).href;
/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;

function engine(): string {
  const agent = navigator.userAgent;
  if (agent.includes('Firefox/')) return 'firefox';
  return agent.includes('Chrome/') ? 'chromium' : 'webkit';
}

async function committed(state: string): Promise<{ file: string; text: string | undefined }> {
  for (const file of [`${state}.${engine()}.txt`, `${state}.txt`]) {
    const response = await pageFetch(DIR + file, { cache: 'no-store' });
    if (response.ok) return { file, text: await response.text() };
  }
  return { file: `${state}.txt`, text: undefined };
}

async function heard(state: string, lines: string[]): Promise<void> {
  const text = `${lines.join('\n')}\n`;
  const { file, text: expected } = await committed(state);
  if (text !== expected) {
    // The whole transcript, to listen to and paste into the file once it is right.
    console.log(`--- transcripts/${file} (${engine()}) ---\n${text}--- end ---`);
  }
  expect(text, `what a screen reader says: ${state} (transcripts/${file})`).to.equal(expected);
}

describe('what a screen reader says', () => {
  let backend: FakeBackend;
  let listener: Listener | undefined;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => {
    listener?.stop();
    backend.restore();
  });

  const open = async (attributes = ''): Promise<PaymentWidget> => {
    const el = await widget(backend, `checkout-id="chk_1" ${attributes}`);
    el.navigate = () => {};
    listener = new Listener(el);
    return el;
  };

  /** Fills a good card and puts focus on Pay, as a shopper about to press it; heard so far is dropped. */
  const readyToPay = async (el: PaymentWidget): Promise<void> => {
    await fillCard(el);
    $(el, 'button[type=submit]').focus();
    listener?.take();
  };

  const outcome = (el: PaymentWidget) =>
    el.shadowRoot?.querySelector('[part~=outcome-region]')?.textContent?.trim() ?? '';

  it('through the form, then a submit refused for invalid fields', async () => {
    const el = await open();
    for (const stop of tabStops(el)) stop.focus();
    await heard('form', listener?.take() ?? []);

    const invalid = oneEvent(el, 'payment-invalid');
    // Inside the shadow root: a move between two of its controls never reaches the element.
    const refocused = new Promise((resolve) =>
      el.shadowRoot?.addEventListener('focusin', resolve, { once: true }),
    );
    void el.submit();
    await invalid;
    await refocused;
    await el.updateComplete;
    await heard('invalid', listener?.take() ?? []);
  });

  it('processing, then declined', async () => {
    let release: (reply: Reply) => void = () => {};
    backend.process = () => new Promise<Reply>((resolve) => (release = resolve));
    const el = await open();
    await readyToPay(el);
    const submitted = oneEvent(el, 'payment-submit');
    void el.submit();
    await submitted;
    await el.updateComplete;
    await heard('processing', listener?.take() ?? []);

    const failed = oneEvent(el, 'payment-failure');
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    release({ status: 200, body: backend.checkout });
    await failed;
    await until('the outcome shown', () => outcome(el) !== '');
    await el.updateComplete;
    await heard('declined', listener?.take() ?? []);
  });

  it('paid', async () => {
    const el = await open();
    await readyToPay(el);
    const paid = oneEvent(el, 'payment-success');
    void el.submit();
    await paid;
    await until('the outcome shown', () => outcome(el) !== '');
    await el.updateComplete;
    await heard('paid', listener?.take() ?? []);
  });

  /**
   * Pays into a 3-D Secure challenge in the widget's frame; what opening it said is heard.
   * `passed`: the challenge page says it ended as soon as it loads, and the backend says PAID.
   */
  const challenged = async (passed = false): Promise<PaymentWidget> => {
    const payload = passed ? { post: 'object' } : {};
    backend.process = () => {
      if (passed) backend.checkout = { ...backend.checkout, status: 'PAID' };
      return {
        status: 202,
        body: {
          next_step: {
            url: ACS,
            method: 'GET',
            payload: { PaReq: 'p', MD: 'm', TermUrl: ACS, ...payload },
          },
        },
      };
    };
    const el = await open('challenge="iframe"');
    await readyToPay(el);
    const challenge = oneEvent(el, 'payment-challenge');
    void el.submit();
    await challenge;
    await el.updateComplete;
    await heard('challenge', listener?.take() ?? []);
    return el;
  };

  it('a 3-D Secure challenge opening, then cancelled', async () => {
    const el = await challenged();
    // Tab leads from the frame to Cancel.
    const cancel = $(el, '[part~=challenge-cancel]');
    cancel.focus();
    cancel.click();
    await until('the form back', () => !$(el, 'form').hidden);
    await el.updateComplete;
    await heard('challenge-cancelled', listener?.take() ?? []);
  });

  it('a 3-D Secure challenge opening, then passed', async () => {
    const paid = new Promise((resolve) =>
      document.addEventListener('payment-success', resolve, { once: true }),
    );
    const el = await challenged(true);
    await paid;
    await until('the outcome shown', () => outcome(el) !== '');
    await el.updateComplete;
    await heard('challenge-paid', listener?.take() ?? []);
  });

  /** Submits a form with nothing in it: what a refused submit says, as focus lands. */
  const refused = async (el: PaymentWidget): Promise<string[]> => {
    const invalid = oneEvent(el, 'payment-invalid');
    const refocused = new Promise((resolve) =>
      el.shadowRoot?.addEventListener('focusin', resolve, { once: true }),
    );
    void el.submit();
    await invalid;
    await refocused;
    await el.updateComplete;
    return listener?.take() ?? [];
  };

  it('iDEAL: through its form, a submit refused, then off to the bank', async () => {
    backend.methods = ['card', 'ideal'];
    backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    const el = await open();
    const radios = el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[name=method]') ?? [];
    [...radios].find((radio) => radio.value === 'ideal')?.click();
    await el.updateComplete;
    listener?.take();
    for (const stop of tabStops(el)) stop.focus();
    await heard('ideal-form', listener?.take() ?? []);
    await heard('ideal-invalid', await refused(el));

    paste($(el, '#firstName'), 'Ada');
    paste($(el, '#lastName'), 'Lovelace');
    paste($(el, '#email'), 'ada@example.com');
    $(el, 'button[type=submit]').focus();
    listener?.take();
    backend.process = () => ({
      status: 202,
      body: {
        next_step: {
          url: 'https://bank.example/pay',
          method: 'GET',
          full: 'https://bank.example/pay?c=1',
        },
      },
    });
    const leaving = oneEvent(el, 'payment-challenge');
    void el.submit();
    await leaving;
    await el.updateComplete;
    await heard('ideal-redirect', listener?.take() ?? []);
  });

  it('in German: through the form, a submit refused, then paid', async () => {
    const el = await open('locale="de-DE"');
    await until(
      'the German words',
      () => $(el, 'button[type=submit]').textContent?.includes('bezahlen') === true,
    );
    listener?.take();
    for (const stop of tabStops(el)) stop.focus();
    await heard('de-form', listener?.take() ?? []);
    await heard('de-invalid', await refused(el));

    await readyToPay(el);
    const paid = oneEvent(el, 'payment-success');
    void el.submit();
    await paid;
    await until('the outcome shown', () => outcome(el) !== '');
    await el.updateComplete;
    await heard('de-paid', listener?.take() ?? []);
  });
});
