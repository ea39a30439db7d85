import { adoptStyles } from 'lit';
import type { CheckoutView, NextStepContext, StringKey } from '../../../src/next-step/index.ts';
import { nextStepStyles } from '../../../src/next-step/index.ts';

export const STRINGS: Record<StringKey, string> = {
  challengeTitle: 'Card verification',
  cancel: 'Cancel',
  pending: 'Payment pending',
  tryAnotherCard: 'Try another card',
  voucherTitle: 'Pay with Boleto',
  voucherBarcode: 'Barcode number',
  copy: 'Copy',
  copied: 'Copied',
  copyManual: 'Selected: copy it with your keyboard',
  openVoucher: 'Open the voucher',
};

export interface Harness {
  ctx: NextStepContext;
  host: HTMLElement;
  container: HTMLElement;
  controller: AbortController;
  navigations: Parameters<NonNullable<NextStepContext['navigate']>>[0][];
  challenges: { mode: 'iframe' | 'redirect'; url: string }[];
  confirmCalls: () => number;
  /** Answers of successive confirm() calls; the last repeats. */
  answers: (CheckoutView | Error)[];
}

/**
 * Mimics the element: a shadow root that adopts nextStepStyles, a container
 * inside it, spies for navigate/onChallenge and a scripted confirm().
 */
export function harness(width = '100%'): Harness {
  const host = document.createElement('div');
  host.style.width = width;
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, [nextStepStyles]);
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
    answers: [{ id: 'chk_1', status: 'PENDING' }],
    ctx: {
      container,
      signal: controller.signal,
      t: (key) => STRINGS[key],
      onChallenge: (detail) => h.challenges.push(detail),
      navigate: (request) => h.navigations.push(request),
      confirm: async () => {
        const answer = h.answers[Math.min(calls, h.answers.length - 1)];
        calls += 1;
        if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no answer');
        return answer;
      },
      poll: { firstMs: 60_000, maxMs: 60_000, totalMs: 600_000 },
    },
  };
  return h;
}

export function dispose(h: Harness): void {
  h.controller.abort();
  h.host.remove();
}

export function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (check()) resolve();
      else if (performance.now() - start > timeoutMs)
        reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The fixture page, on this origin or on the other loopback name (a second origin). */
export function fixtureUrl(otherOrigin = false, query = ''): string {
  const url = new URL('/test/browser/next-step/fixtures/challenge.html', location.href);
  if (otherOrigin) url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  url.search = query;
  return url.href;
}
