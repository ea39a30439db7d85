// The confirmation loop on its own: only a final status ends it early, and its deadline
// bounds everything, the request in flight included.
import { expect } from '@open-wc/testing';
import { isFinalStatus } from '../../../src/domain/checkout.ts';
import { confirmLoop } from '../../../src/next-step/poll.ts';
import type { CheckoutView } from '../../../src/next-step/types.ts';
import { scaled, until } from '../../shared/until.ts';
import { checkoutWith, notAConfirmation } from './helpers.ts';

/**
 * What a confirm() below resolves with: the handler's answer to `GET /checkouts/:id`, checked
 * here (the test fails at once) to be one the handler can give.
 */
function answer(status: string): CheckoutView {
  const view = checkoutWith({ status });
  const wrong = notAConfirmation(view);
  if (wrong) throw new Error(`not an answer of the handler: ${wrong}`);
  return view;
}
const PENDING = answer('PENDING');
const PAID = answer('PAID');

/** Asks every 10-20 ms until 300 ms have passed (scaled: a busy machine's timers run late). */
const FAST = { firstMs: 10, maxMs: 20, totalMs: scaled(300) };

describe('confirmLoop', () => {
  it('a status it does not know is not final: it asks until the deadline, then pending', async () => {
    // A status a later provider (and a later handler passing it on) may add: this handler
    // answers none (its schema refuses it), so it is not checked against the handler's answers.
    let asked = 0;
    const loop = confirmLoop(
      async () => {
        asked += 1;
        return { id: 'chk_1', status: 'AUTHORIZED' };
      },
      isFinalStatus,
      FAST,
    );
    loop.start();
    const outcome = await loop.result;
    expect(outcome).to.deep.equal({
      kind: 'pending',
      checkout: { id: 'chk_1', status: 'AUTHORIZED' },
    });
    expect(asked).to.be.greaterThan(2);
  });

  it('a final status ends it at once', async () => {
    const answers: CheckoutView[] = [PENDING, PAID];
    let asked = 0;
    const loop = confirmLoop(async () => answers[Math.min(asked++, 1)]!, isFinalStatus, FAST);
    loop.start();
    expect(await loop.result).to.deep.equal({ kind: 'final', checkout: answers[1] });
    expect(asked).to.equal(2);
  });

  it('a backend that never answers cannot hold it past its deadline: the request is aborted', async () => {
    const signals: AbortSignal[] = [];
    let answered = false;
    const loop = confirmLoop(
      (signal) => {
        signals.push(signal);
        // The first read answers pending; every later one hangs until it is aborted.
        if (!answered) {
          answered = true;
          return Promise.resolve(PENDING);
        }
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      },
      isFinalStatus,
      FAST,
    );
    const started = performance.now();
    loop.start();
    const outcome = await loop.result;
    expect(outcome.kind).to.equal('pending');
    expect(performance.now() - started).to.be.lessThan(FAST.totalMs + scaled(1_000));
    expect(signals.length).to.equal(2);
    expect(signals[1]?.aborted).to.equal(true);
  });
});

describe('confirmLoop while the page is hidden', () => {
  /** How often the loop looked whether the page is hidden: each of its ticks does. */
  let looked = 0;
  /** The page as the browser reports it when the shopper switched away, and back. */
  const setHidden = (hidden: boolean): void => {
    Object.defineProperty(document, 'hidden', {
      configurable: true,
      get: () => {
        looked += 1;
        return hidden;
      },
    });
  };
  afterEach(() => {
    // The prototype's own getter again.
    delete (document as { hidden?: boolean }).hidden;
  });

  it('asks nothing while hidden, and again once the page is seen', async () => {
    let asked = 0;
    const loop = confirmLoop(
      async () => {
        asked += 1;
        return asked > 1 ? PAID : PENDING;
      },
      isFinalStatus,
      { firstMs: 10, maxMs: 10, totalMs: 60_000 },
    );
    setHidden(true);
    looked = 0;
    loop.start();
    // Several ticks came and found the page hidden: none of them asked.
    await until('three ticks', () => looked >= 3);
    expect(asked).to.equal(0);
    setHidden(false);
    const outcome = await loop.result;
    expect(outcome.kind).to.equal('final');
    expect(asked).to.equal(2);
  });

  it('hidden past its deadline with nothing read: one read ends it, never with nothing', async () => {
    let asked = 0;
    const loop = confirmLoop(
      async () => {
        asked += 1;
        return PENDING;
      },
      isFinalStatus,
      { firstMs: 10, maxMs: 10, totalMs: 50 },
    );
    setHidden(true);
    loop.start();
    expect(await loop.result).to.deep.equal({ kind: 'pending', checkout: PENDING });
    expect(asked).to.equal(1);
  });
});
