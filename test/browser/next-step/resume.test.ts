// The steps the widget finds open when it loads again, on their own: a page step offered
// behind a button (never followed by itself, and its URLs checked when it is), a wait for the
// bank's answer; each ends with the backend's final answer, another card, or the element.
import { expect } from '@open-wc/testing';
import { type Outcome, runAction } from '../../../src/next-step/index.ts';
import type { Action } from '../../../src/next-step/types.ts';
import { until } from '../../shared/until.ts';
import { checkoutWith, dispose, type Harness, harness, STRINGS } from './helpers.ts';

const PAGE_CHALLENGE: Action = {
  kind: 'offer',
  step: {
    kind: 'challenge-redirect',
    nextStep: {
      url: 'https://acs.example/challenge',
      method: 'POST',
      payload: { PaReq: 'p', MD: 'm', TermUrl: 'https://api.example/term' },
    },
  },
};

const buttons = (h: Harness) =>
  [...h.container.querySelectorAll('button')].map((b) => b.textContent?.trim());

function start(h: Harness, action: Action): Promise<Outcome> {
  const outcome = runAction(action, h.ctx);
  outcome.catch(() => {});
  return outcome;
}

describe('offer: a page step still open', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => dispose(h));

  it('says why and for how much, then two buttons; leaves only when asked, by the redirect rules', async () => {
    const outcome = start(h, PAGE_CHALLENGE);
    await until('the two buttons', () => buttons(h).length === 2);
    expect(buttons(h)).to.deep.equal([STRINGS.challengeTitle, STRINGS.tryAnotherCard]);
    const why = h.container.querySelector('[part~=resume-why]');
    expect(why?.textContent).to.equal('Your payment of €10.00 is not finished.');
    expect(why?.nextElementSibling?.textContent).to.equal(STRINGS.challengeTitle);
    expect(h.navigations).to.deep.equal([]);
    expect(h.challenges).to.deep.equal([]);
    h.container.querySelector<HTMLButtonElement>('[part~=resume-continue]')?.click();
    expect(await outcome).to.deep.equal({ kind: 'navigating' });
    expect(h.challenges).to.deep.equal([
      { mode: 'redirect', url: 'https://acs.example/challenge' },
    ]);
    expect(h.navigations).to.deep.equal([
      {
        url: 'https://acs.example/challenge',
        method: 'POST',
        fields: { PaReq: 'p', MD: 'm', TermUrl: 'https://api.example/term' },
      },
    ]);
    expect(h.container.children).to.have.length(0);
  });

  it('a bank page: another way to pay offered; a URL the rule refuses is never followed', async () => {
    const outcome = start(h, {
      kind: 'offer',
      step: { kind: 'apm-redirect', nextStep: { url: 'x', full: 'javascript:alert(1)' } },
    });
    await until('the two buttons', () => buttons(h).length === 2);
    expect(buttons(h)).to.deep.equal([STRINGS.challengeTitle, STRINGS.tryAnotherWay]);
    h.container.querySelector<HTMLButtonElement>('[part~=resume-continue]')?.click();
    expect((await outcome).kind).to.equal('refused');
    expect(h.navigations).to.deep.equal([]);
  });

  it('"Try another card": cancelled, and the offer is gone', async () => {
    const outcome = start(h, PAGE_CHALLENGE);
    await until('the two buttons', () => buttons(h).length === 2);
    h.container.querySelector<HTMLButtonElement>('.step-other')?.click();
    expect(await outcome).to.deep.equal({ kind: 'cancelled' });
    expect(h.container.children).to.have.length(0);
  });
});

describe('waiting: a step that cannot be shown again', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => dispose(h));

  it('says so in a status region and ends with what the backend reads', async () => {
    h.answers = [checkoutWith({ status: 'PAID' })];
    h.ctx.poll = { firstMs: 10, maxMs: 10, totalMs: 5_000 };
    const outcome = start(h, { kind: 'waiting', bank: false });
    const status = h.container.querySelector('[role=status]');
    // What it is and what happens next, in one status.
    expect(status?.textContent).to.equal(STRINGS.pending + STRINGS.pendingWait);
    expect(buttons(h)).to.deep.equal([STRINGS.tryAnotherCard]);
    expect(await outcome).to.deep.equal({
      kind: 'final',
      checkout: checkoutWith({ status: 'PAID' }),
    });
    expect(h.container.children).to.have.length(0);
  });

  it("a bank's page awaited: another way to pay offered", async () => {
    h.answers = [checkoutWith({ status: 'PAID' })];
    h.ctx.poll = { firstMs: 10, maxMs: 10, totalMs: 5_000 };
    const outcome = start(h, { kind: 'waiting', bank: true });
    expect(buttons(h)).to.deep.equal([STRINGS.tryAnotherWay]);
    expect((await outcome).kind).to.equal('final');
  });

  it('still pending when the time is up: the checkout without its step, which no event carries', async () => {
    h.answers = [checkoutWith({ next_step: { url: 'https://acs.example' }, payment_type: 'card' })];
    h.ctx.poll = { firstMs: 10, maxMs: 10, totalMs: 60 };
    expect(await start(h, { kind: 'waiting', bank: false })).to.deep.equal({
      kind: 'pending',
      checkout: checkoutWith({ status: 'PENDING' }),
    });
  });

  it('the element going away ends it with its reason', async () => {
    const outcome = runAction({ kind: 'waiting', bank: false }, h.ctx);
    h.controller.abort(new Error('disconnected'));
    let reason: unknown;
    await outcome.catch((error: unknown) => {
      reason = error;
    });
    expect((reason as Error).message).to.equal('disconnected');
    expect(h.container.children).to.have.length(0);
  });
});
