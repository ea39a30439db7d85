import { expect } from '@open-wc/testing';
import { CHALLENGE_FRAME } from '../../../src/domain/checkout.ts';
import { type Outcome, runAction } from '../../../src/next-step/index.ts';
import type { NextStepFields } from '../../../src/next-step/types.ts';
import { narrowViewport } from '../commands.ts';
import {
  afterTimersDue,
  checkoutWith,
  dispose,
  fixtureUrl,
  type Harness,
  harness,
  nextMessage,
  PENDING_CHECKOUT,
  STRINGS,
} from './helpers.ts';

const PAID = checkoutWith({ status: 'PAID' });

/** The message the fixture page posts for `?post=object`. */
const isCompletion = (data: unknown) =>
  (data as { type?: unknown } | null)?.type === 'payment-widget:challenge-complete';

interface Started {
  outcome: Promise<Outcome>;
  frame: HTMLIFrameElement;
  form: HTMLFormElement;
  /** Resolves once the challenge page (not the initial about:blank) has loaded. */
  loaded: Promise<void>;
}

function start(h: Harness, nextStep: NextStepFields): Started {
  const outcome = runAction({ kind: 'challenge-iframe', nextStep }, h.ctx);
  // Tests that end by aborting must not leave an unhandled rejection behind.
  outcome.catch(() => {});
  const frame = h.container.querySelector('iframe');
  const form = h.container.querySelector('form');
  if (!frame || !form) throw new Error('the challenge was not rendered');
  const loaded = new Promise<void>((resolve) =>
    frame.addEventListener('load', () => resolve(), { once: true }),
  );
  return { outcome, frame, form, loaded };
}

/** A challenge served by the fixture page (GET, so a static server can answer it). */
function step(opts: {
  frameOtherOrigin?: boolean;
  termOtherOrigin?: boolean;
  post?: string;
}): NextStepFields {
  const payload: Record<string, string> = {
    PaReq: 'pareq',
    MD: 'md-1',
    TermUrl: fixtureUrl(opts.termOtherOrigin ?? false),
  };
  if (opts.post) payload.post = opts.post;
  return { url: fixtureUrl(opts.frameOtherOrigin ?? false), method: 'GET', payload };
}

describe('challenge-iframe', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness('800px');
  });
  afterEach(() => dispose(h));

  it('POSTs one hidden input per payload key into a named, titled iframe', async () => {
    const url = 'https://acs.example.com/challenge';
    const payload = { PaReq: 'pareq', MD: 'md-1', TermUrl: 'https://api.example.com/term' };
    const { frame, form, outcome } = start(h, { url, method: 'POST', payload });

    expect(h.challenges).to.deep.equal([{ mode: 'iframe', url }]);
    // The handler's return page stays in a frame so named (src/server/routes/return-frame.ts).
    expect(frame.name.startsWith(CHALLENGE_FRAME)).to.equal(true, frame.name);
    expect(frame.title).to.equal(STRINGS.challengeTitle);
    expect(form.target).to.equal(frame.name);
    expect(form.method).to.equal('post');
    expect(form.action).to.equal(url);
    const inputs = [...form.elements] as HTMLInputElement[];
    expect(inputs.map((i) => [i.type, i.name, i.value])).to.deep.equal(
      Object.entries(payload).map(([k, v]) => ['hidden', k, v]),
    );
    h.container.querySelector('button')?.click();
    expect(await outcome).to.deep.equal({ kind: 'cancelled' });
  });

  it('is 390x400 by default and full width on a 320 px screen', async () => {
    const { frame, outcome } = start(h, step({}));
    let box = frame.getBoundingClientRect();
    expect([box.width, box.height]).to.deep.equal([390, 400]);

    const before = { width: window.innerWidth, height: window.innerHeight };
    // The frame sizes from its container, whether the viewport or (in WebKit) the body is narrow.
    const restore = await narrowViewport({ width: 320, height: 640 }, before);
    try {
      h.host.style.width = 'auto';
      box = frame.getBoundingClientRect();
      // Its frame of its own takes the width, and the challenge all of the frame's inside.
      const own = frame.parentElement as HTMLElement;
      expect(own.getBoundingClientRect().width).to.equal(h.container.getBoundingClientRect().width);
      expect(box.width).to.equal(own.clientWidth);
      expect(box.width).to.be.within(278, 318);
    } finally {
      await restore();
    }
    h.controller.abort();
    await outcome.catch(() => {});
  });

  it('sits in a frame of its own, headed by what the bank asks', async () => {
    const { frame, outcome } = start(h, step({}));
    const own = frame.parentElement as HTMLElement;
    expect(own.getAttribute('part')).to.equal('challenge-box');
    expect(own.firstElementChild?.textContent).to.equal(STRINGS.challengeTitle);
    expect(getComputedStyle(own).borderTopStyle).to.equal('solid');
    // Cancel is outside it: the widget's, not the bank's.
    expect(own.querySelector('button')).to.equal(null);
    h.controller.abort();
    await outcome.catch(() => {});
  });

  it('is accessible while the challenge shows', async () => {
    const { loaded } = start(h, step({}));
    await loaded;
    await expect(h.container).to.be.accessible();
  });

  it('confirms as soon as its own frame, at TermUrl origin, reports completion', async () => {
    h.answers = [PAID];
    const { outcome } = start(h, step({ post: 'object' }));
    expect(await outcome).to.deep.equal({ kind: 'final', checkout: PAID });
    expect(h.confirmCalls()).to.equal(1);
    expect(h.container.childElementCount).to.equal(0);
  });

  it('accepts the completion as a bare string too', async () => {
    h.answers = [PAID];
    const { outcome } = start(h, step({ post: 'string' }));
    expect(await outcome).to.deep.equal({ kind: 'final', checkout: PAID });
  });

  it('trusts TermUrl origin, not the challenge page origin, when both are given', async () => {
    h.answers = [PAID];
    const { outcome } = start(
      h,
      step({ frameOtherOrigin: true, termOtherOrigin: true, post: 'object' }),
    );
    expect(await outcome).to.deep.equal({ kind: 'final', checkout: PAID });
  });

  it('ignores a completion from another origin than TermUrl', async () => {
    h.answers = [PAID];
    const { outcome } = start(h, step({ frameOtherOrigin: true, post: 'object' }));
    // Listening after the widget (start() added its listener), before the frame can post.
    const posted = nextMessage(isCompletion);
    // The widget's listener, added first, has seen the completion: it did not ask.
    expect((await posted).origin).not.to.equal(new URL(fixtureUrl()).origin);
    expect(h.confirmCalls()).to.equal(0);
    h.container.querySelector('button')?.click();
    expect(await outcome).to.deep.equal({ kind: 'cancelled' });
  });

  it('ignores a completion from a window other than its iframe', async () => {
    h.answers = [PAID];
    const { loaded, outcome } = start(h, step({}));
    await loaded;
    const posted = nextMessage(isCompletion);
    window.postMessage({ type: 'payment-widget:challenge-complete' }, '*');
    expect((await posted).source).to.equal(window);
    expect(h.confirmCalls()).to.equal(0);
    h.container.querySelector('button')?.click();
    expect(await outcome).to.deep.equal({ kind: 'cancelled' });
  });

  it('keeps the challenge page from navigating the shop’s page, and lets it run its scripts and forms', async () => {
    const { frame, outcome } = start(h, step({ frameOtherOrigin: true, post: 'top' }));
    const tried = nextMessage((data) => (data as { type?: unknown })?.type === 'tried-top');
    // The page's script ran (allow-scripts) and its message came (it tried).
    expect((await tried).source).to.equal(frame.contentWindow);
    expect(location.hash).to.equal('');
    expect(frame.getAttribute('sandbox')?.split(' ').sort()).to.deep.equal([
      'allow-forms',
      'allow-popups',
      'allow-same-origin',
      'allow-scripts',
    ]);
    h.controller.abort();
    await outcome.catch(() => {});
  });

  it('ignores other messages from its iframe', async () => {
    h.answers = [PAID];
    const { frame, outcome } = start(h, step({ post: 'other' }));
    const posted = nextMessage((data) => (data as { type?: unknown })?.type === 'something-else');
    expect((await posted).source).to.equal(frame.contentWindow);
    expect(h.confirmCalls()).to.equal(0);
    h.controller.abort();
    await outcome.catch(() => {});
  });

  it('keeps polling after a completion while the backend still says PENDING', async () => {
    h.answers = [checkoutWith({ status: 'PENDING' }), checkoutWith({ status: 'FAILED' })];
    h.ctx.poll = { firstMs: 30, maxMs: 30, totalMs: 5000 };
    const { outcome } = start(h, step({ post: 'object' }));
    expect(await outcome).to.deep.equal({
      kind: 'final',
      checkout: checkoutWith({ status: 'FAILED' }),
    });
    expect(h.confirmCalls()).to.equal(2);
  });

  it('falls back to polling the backend when no message comes', async () => {
    h.answers = [PENDING_CHECKOUT, PENDING_CHECKOUT, checkoutWith({ status: 'FAILED' })];
    h.ctx.poll = { firstMs: 20, maxMs: 40, totalMs: 5000 };
    const { outcome } = start(h, step({}));
    expect(await outcome).to.deep.equal({
      kind: 'final',
      checkout: checkoutWith({ status: 'FAILED' }),
    });
    expect(h.confirmCalls()).to.equal(3);
    expect(h.container.childElementCount).to.equal(0);
  });

  it('retries a failed confirmation instead of giving up', async () => {
    h.answers = [new Error('offline'), PAID];
    h.ctx.poll = { firstMs: 20, maxMs: 20, totalMs: 5000 };
    const { outcome } = start(h, step({}));
    expect(await outcome).to.deep.equal({ kind: 'final', checkout: PAID });
  });

  it('reports pending with the last checkout when time runs out', async () => {
    const pending = checkoutWith({ status: 'PENDING' });
    h.answers = [pending];
    h.ctx.poll = { firstMs: 20, maxMs: 40, totalMs: 150 };
    const { outcome } = start(h, step({}));
    expect(await outcome).to.deep.equal({ kind: 'pending', checkout: pending });
    expect(h.container.childElementCount).to.equal(0);
  });

  it('rejects with the backend error when no confirmation ever succeeded', async () => {
    h.answers = [new Error('backend down')];
    h.ctx.poll = { firstMs: 20, maxMs: 40, totalMs: 100 };
    const { outcome } = start(h, step({}));
    const error = await outcome.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error).with.property('message', 'backend down');
  });

  it('cancels: resolves cancelled, removes the challenge and stops listening', async () => {
    h.ctx.poll = { firstMs: 20, maxMs: 20, totalMs: 5000 };
    const { outcome, loaded } = start(h, step({}));
    await loaded;
    const cancel = h.container.querySelector('button');
    expect(cancel?.textContent).to.equal(STRINGS.cancel);
    const asked = h.confirmCalls();
    cancel?.click();
    expect(await outcome).to.deep.equal({ kind: 'cancelled' });
    expect(h.container.childElementCount).to.equal(0);
    // Past the moment the next poll was due: it never asks again.
    await afterTimersDue(20);
    expect(h.confirmCalls()).to.equal(asked);
  });

  it('on abort: rejects with the abort reason, removes the challenge and stops polling', async () => {
    h.ctx.poll = { firstMs: 20, maxMs: 20, totalMs: 5000 };
    const { outcome } = start(h, step({}));
    h.controller.abort();
    const error = await outcome.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
    expect(h.container.childElementCount).to.equal(0);
    // Past the moment the first poll was due: it never asks.
    await afterTimersDue(20);
    expect(h.confirmCalls()).to.equal(0);
  });

  for (const [what, nextStep] of [
    ['a javascript: url', { url: 'javascript:alert(1)', payload: {} }],
    ['http://example.com', { url: 'http://example.com/acs', payload: {} }],
    [
      'a TermUrl on http://example.com',
      { url: fixtureUrl(), payload: { TermUrl: 'http://example.com/t' } },
    ],
  ] as const) {
    it(`refuses ${what}: nothing rendered, nothing announced`, async () => {
      const outcome = await runAction({ kind: 'challenge-iframe', nextStep }, h.ctx);
      expect(outcome.kind).to.equal('refused');
      expect(h.container.childElementCount).to.equal(0);
      expect(h.challenges).to.have.length(0);
      expect(h.navigations).to.have.length(0);
    });
  }
});
