// The 3-D Secure challenge's frame on a slow or dropped network, as the shopper meets it: the
// bank's page held back (what the box says meanwhile), and cut off while the browser is offline
// (what brings the challenge back once it is online). The bank's page is the runner's
// `/bank-page` (scripts/wtr-bank-page.mjs): held back, or its connection dropped unanswered, so
// that each engine shows its own error page in the frame. Offline is the page's view of it
// (navigator.onLine, then the `online` event), as in ../widget/lost-answer.test.ts.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { type Outcome, runAction } from '../../../src/next-step/index.ts';
import { until } from '../../shared/until.ts';
import { checkoutWith, dispose, type Harness, harness, STRINGS } from './helpers.ts';

type BankPage = 'up' | 'held' | 'release' | 'down' | 'reset' | 'count';
interface Asked {
  served: number;
  dropped: number;
}

/** Sets how the bank's page answers (`count` leaves it); resolves with what it answered. */
const bankPage = (state: BankPage): Promise<Asked> =>
  executeServerCommand<Asked, BankPage>('bank-page', state);

const BANK_PAGE = new URL('/bank-page', location.href).href;

/** The next load of `frame`: its page, or the engine's error page. */
const nextLoad = (frame: HTMLIFrameElement): Promise<void> =>
  new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));

/** What the frame shows of the bank's page (its heading), if that is what it shows. */
function bankHeading(frame: HTMLIFrameElement): string | undefined {
  try {
    return frame.contentDocument?.querySelector('h1')?.textContent ?? undefined;
  } catch {
    // An engine's error page of an origin of its own (Chromium's chrome-error://).
    return undefined;
  }
}

const shown = (el: Element | null): boolean => !!el && el.getClientRects().length > 0;

interface Started {
  outcome: Promise<Outcome>;
  frame: HTMLIFrameElement;
  /** What the box says while the bank's page loads (none before this was written). */
  loading: HTMLElement | null;
}

function start(h: Harness): Started {
  const nextStep = { url: BANK_PAGE, method: 'POST', payload: { MD: 'md-1', TermUrl: BANK_PAGE } };
  const outcome = runAction({ kind: 'challenge-iframe', nextStep }, h.ctx);
  outcome.catch(() => {});
  const frame = h.container.querySelector('iframe');
  const loading = h.container.querySelector<HTMLElement>('[role=status]');
  if (!frame) throw new Error('the challenge was not rendered');
  return { outcome, frame, loading };
}

/** Where each box of the challenge is on the page. */
const boxes = (h: Harness): string[] =>
  [...h.container.querySelectorAll('.step > *, iframe')].map((el) => {
    const { x, y, width, height } = el.getBoundingClientRect();
    return `${el.localName}.${el.className}: ${x},${y} ${width}x${height}`;
  });

describe('the challenge frame on a slow or dropped network', () => {
  let h: Harness;
  let online = true;
  beforeEach(async () => {
    h = harness('800px');
    await bankPage('reset');
    online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  });
  afterEach(async () => {
    Reflect.deleteProperty(navigator, 'onLine');
    dispose(h);
    await bankPage('release');
  });

  it('says the bank’s page is coming, politely, until it has loaded; nothing moves when it comes', async () => {
    await bankPage('held');
    const { frame, loading } = start(h);
    expect(loading, 'what the box says while the bank’s page loads').to.be.instanceOf(HTMLElement);
    await until('the loading words', () => loading?.textContent === STRINGS.challengeLoading);
    expect(shown(loading), 'the words are seen').to.equal(true);
    expect(loading?.getAttribute('role')).to.equal('status');
    // The frame is there, its size kept, but not seen: a blank rectangle says nothing.
    expect(getComputedStyle(frame).visibility).to.equal('hidden');
    await expect(h.container).to.be.accessible();
    const before = boxes(h);

    const loaded = nextLoad(frame);
    await bankPage('release');
    await loaded;
    expect(bankHeading(frame)).to.equal('Your bank');
    expect(shown(loading), 'the words are gone').to.equal(false);
    expect(getComputedStyle(frame).visibility).to.equal('visible');
    expect(boxes(h)).to.deep.equal(before);
    await expect(h.container).to.be.accessible();
  });

  /**
   * Offline as the challenge is posted: its request gets nowhere. Chromium shows its error
   * page (its "No internet" when really offline) and fires the frame's load; Firefox shows
   * its own without a load; WebKit leaves the frame empty.
   */
  const cutOff = async (h: Harness): Promise<Started> => {
    online = false;
    await bankPage('down');
    const started = start(h);
    // Done with it (no retry of its own can be served later): Chromium's and Firefox's error
    // page is of another origin; WebKit's frame keeps its first, empty document.
    const webkit = /AppleWebKit/.test(navigator.userAgent) && !/Chrome/.test(navigator.userAgent);
    await until(
      'the request dropped, and the engine done with it',
      async () =>
        (await bankPage('count')).dropped > 0 && (webkit || started.frame.contentDocument === null),
    );
    return started;
  };

  it('offline, the challenge is posted again once back online, and shows', async () => {
    const { frame, loading } = await cutOff(h);
    await bankPage('up');
    online = true;
    window.dispatchEvent(new Event('online'));
    // Not over (the checkout read back is still pending): the challenge shows again.
    await until('the bank’s page in the frame', () => bankHeading(frame) === 'Your bank');
    await until('the loading words gone', () => !shown(loading));
    expect((await bankPage('count')).served, 'the bank’s page served').to.equal(1);
    expect(h.confirmCalls(), 'the checkout read back first').to.equal(1);
    await expect(h.container).to.be.accessible();
  });

  it('back online after the checkout was paid meanwhile: the outcome, not the challenge again', async () => {
    const paid = checkoutWith({ status: 'PAID' });
    h.answers = [paid];
    const { outcome } = await cutOff(h);
    await bankPage('up');
    online = true;
    window.dispatchEvent(new Event('online'));
    expect(await outcome).to.deep.equal({ kind: 'final', checkout: paid });
    expect((await bankPage('count')).served, 'the bank’s page served').to.equal(0);
  });

  it('a page that loaded online is left alone when the browser says it is online', async () => {
    const { frame } = start(h);
    await nextLoad(frame);
    expect(bankHeading(frame)).to.equal('Your bank');
    window.dispatchEvent(new Event('online'));
    // The read it would make first: none.
    expect(h.confirmCalls()).to.equal(0);
    expect((await bankPage('count')).served).to.equal(1);
  });
});
