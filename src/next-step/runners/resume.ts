import { h } from '../dom.ts';
import { type Held, hold } from '../hold.ts';
import type { StepRunner } from '../runner.ts';
import type { NextStepContext } from '../types.ts';
import { apmRedirect } from './apm-redirect.ts';
import { challengeRedirect } from './challenge-redirect.ts';

// The steps the widget finds open when it loads again (a reload mid-step, the back button
// from the bank's page): never a blank form for a checkout the bank may approve at any
// moment. Each reads the checkout back meanwhile (hold), so an approval elsewhere (the bank's
// app on a phone) shows within seconds, and each offers another try on the same checkout:
// another card, or after a bank's page another way to pay (the shopper paid with no card).

/**
 * Shows `first` (what the step is), then "Try another card" ("Try another way to pay" for a
 * `bank` step): the form again, still payable.
 */
function shownAgain(ctx: NextStepContext, bank: boolean, first: (end: Held['end']) => Node[]) {
  const view = h('div', { class: 'step', part: 'resume' });
  return hold(ctx, view, ({ end }) => {
    const other = h(
      'button',
      { type: 'button', class: 'step-other', part: 'button retry' },
      ctx.t(bank ? 'tryAnotherWay' : 'tryAnotherCard'),
    );
    other.addEventListener('click', () => end({ kind: 'cancelled' }));
    view.append(...first(end), other);
    return undefined;
  });
}

/**
 * A full-page step still open: offered again behind a button, since leaving the page by
 * itself on load would take the shopper somewhere they did not ask to go (and a page that
 * sends itself away on every load can never be left with the back button). The challenge's
 * own words say where the button leads, for a bank's page too; the redirect runners check
 * its URLs, tell the element (payment-challenge) and leave.
 */
export const offer: StepRunner<'offer'> = ({ step }, ctx) =>
  shownAgain(ctx, step.kind === 'apm-redirect', (end) => {
    const go = h(
      'button',
      { type: 'button', part: 'button resume-continue' },
      ctx.t('challengeTitle'),
    );
    go.addEventListener('click', () =>
      end(
        step.kind === 'challenge-redirect' ? challengeRedirect(step, ctx) : apmRedirect(step, ctx),
      ),
    );
    // Why the shopper is asked, and for how much, before the button that leads on.
    return [h('p', { part: 'resume-why' }, ctx.t('resumeWhy')), go];
  });

/**
 * A step that was open and cannot be shown again (the handler no longer holds it): the
 * widget says the payment waits for the bank's answer ("Payment pending") and what happens
 * next, drawn as the pending outcome is (the pay part's `.outcome-box`), and reads the
 * checkout back.
 */
export const waiting: StepRunner<'waiting'> = ({ bank }, ctx) =>
  shownAgain(ctx, bank, () => [
    h(
      'div',
      { class: 'outcome-box', role: 'status' },
      h(
        'div',
        { class: 'outcome-text' },
        h('p', { class: 'outcome' }, ctx.t('pending')),
        h('p', {}, ctx.t('pendingWait')),
      ),
    ),
  ]);
