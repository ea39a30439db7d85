import { adoptStyles, css } from 'lit';
import { isFinalStatus } from '../../../src/domain/checkout.ts';
import type { CheckoutView, NextStepContext, StringKey } from '../../../src/next-step/index.ts';
import { nextStepStyles } from '../../../src/next-step/index.ts';
import { notAHandlerAnswer } from '../../shared/handler-answers.ts';

export const STRINGS: Record<StringKey, string> = {
  challengeTitle: 'Card verification',
  challengeLoading: 'Loading the bank page…',
  cancel: 'Cancel',
  pending: 'Payment pending',
  pendingWait: 'This page updates by itself once your bank answers.',
  resumeWhy: 'Your payment of {amount} is not finished.',
  tryAnotherCard: 'Try another card',
  tryAnotherWay: 'Try another way to pay',
  voucherTitle: 'Pay with Boleto',
  voucherBarcode: 'Barcode number',
  copy: 'Copy',
  copied: 'Copied',
  copyManual: 'Selected: copy it with your keyboard',
  openVoucher: 'Open the voucher',
};

/** The amount the element hands its steps, written as its locale writes money. */
export const AMOUNT = '€10.00';

export interface Harness {
  ctx: NextStepContext;
  host: HTMLElement;
  container: HTMLElement;
  controller: AbortController;
  navigations: Parameters<NonNullable<NextStepContext['navigate']>>[0][];
  challenges: { mode: 'iframe' | 'redirect'; url: string }[];
  confirmCalls: () => number;
  /**
   * Answers of successive confirm() calls; the last repeats. Each is what the widget's
   * confirm() resolves with: the handler's answer to `GET /checkouts/:id`, so each is checked
   * to be one the handler can give (test/shared/handler-answers.ts); an Error stands for a
   * call that failed.
   */
  answers: (CheckoutView | Error)[];
}

/** A pending checkout as the handler answers `GET /checkouts/chk_1`. */
export const PENDING_CHECKOUT: CheckoutView = {
  id: 'chk_1',
  checkout_reference: 'order-1',
  amount: 10,
  currency: 'EUR',
  merchant_code: 'MSANDBOX1',
  status: 'PENDING',
};

/** `checkout` (PENDING_CHECKOUT by default) with `changes`: a checkout the handler can answer. */
export function checkoutWith(changes: Partial<CheckoutView>): CheckoutView {
  return { ...PENDING_CHECKOUT, ...changes };
}

/**
 * Why the handler could not have answered `GET /checkouts/:id` with `answer` (what the
 * widget's confirm() resolves with), or undefined when it could.
 */
export function notAConfirmation(answer: CheckoutView): string | undefined {
  return notAHandlerAnswer('GET', `/checkouts/${String(answer.id)}`, 200, answer);
}

/** Answers confirm() gave that the handler cannot: `dispose()` fails the test on them. */
const wrongAnswers = new WeakMap<Harness, string[]>();

/**
 * Mimics the element: a shadow root that adopts nextStepStyles, a container
 * inside it, spies for navigate/onChallenge and a scripted confirm().
 */
export function harness(width = '100%'): Harness {
  const host = document.createElement('div');
  host.style.width = width;
  // The element's border colour, which its own styles give the steps (the challenge's frame).
  host.style.setProperty('--_border', '#8a9199');
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  // Every box of the element is sized by its border box (its own styles say so).
  adoptStyles(root, [css`* { box-sizing: border-box; }`, nextStepStyles]);
  const container = document.createElement('div');
  root.append(container);
  const controller = new AbortController();
  let calls = 0;
  const h: Harness = {
    host,
    container,
    controller,
    navigations: [],
    challenges: [],
    confirmCalls: () => calls,
    answers: [PENDING_CHECKOUT],
    ctx: {
      container,
      signal: controller.signal,
      t: (key) => STRINGS[key].replace('{amount}', AMOUNT),
      onChallenge: (detail) => h.challenges.push(detail),
      navigate: (request) => h.navigations.push(request),
      confirm: async () => {
        const answer = h.answers[Math.min(calls, h.answers.length - 1)];
        calls += 1;
        if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no answer');
        const wrong = notAConfirmation(answer);
        if (wrong) wrongAnswers.get(h)?.push(wrong);
        return answer;
      },
      isFinal: isFinalStatus,
      poll: { firstMs: 60_000, maxMs: 60_000, totalMs: 600_000 },
    },
  };
  wrongAnswers.set(h, []);
  return h;
}

export function dispose(h: Harness): void {
  h.controller.abort();
  h.host.remove();
  const wrong = wrongAnswers.get(h) ?? [];
  if (wrong.length > 0) {
    throw new Error(`confirm() answered what the handler cannot:\n${wrong.join('\n')}`);
  }
}

/**
 * Resolves once every timer armed before this call, due within `ms`, has fired: timers of
 * one length fire in the order they were armed. A test that shows a loop did not ask again
 * waits for the moment its timer would have fired, instead of guessing a length of time.
 */
export function afterTimersDue(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The next `message` event this window receives whose data `matches`: it reaches the
 * listeners added before this one first, so once it resolves they have seen it.
 */
export function nextMessage(matches: (data: unknown) => boolean): Promise<MessageEvent> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent): void => {
      if (!matches(event.data)) return;
      window.removeEventListener('message', listener);
      resolve(event);
    };
    window.addEventListener('message', listener);
  });
}

/** The fixture page, on this origin or on the other loopback name (a second origin). */
export function fixtureUrl(otherOrigin = false, query = ''): string {
  const url = new URL('/test/browser/next-step/fixtures/challenge.html', location.href);
  if (otherOrigin) url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  url.search = query;
  return url.href;
}
