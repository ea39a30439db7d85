// The confirmed outcome ("Payment successful" and the amount paid, "Payment failed" and why,
// and the button that pays the basket after all) and "Payment pending" with what happens
// next: the pay part's (src/widget/parts/pay.ts), as only a payment ends in one.

import type { PayContext } from '../checkout/context.ts';
import { retry } from '../checkout/pay.ts';
import { css, format, formatMoney, html, nothing, svg } from '../parts/kit.ts';
import type { Lifecycle } from '../state.ts';

// An outcome is a status, never drawn like a button (filled, or outlined all round): a bar of
// its colour at its start, its words left-aligned beside a mark (paid: a tick, failed: a
// cross; pending has none, it is not an outcome yet), and what it means under it in the text
// colour. No background: a wash would need color-mix(), newer than the browsers supported,
// or colours of its own that a merchant's theme would not reach, and the contrast checks
// read the text against the page. A step that waits for the bank's answer
// (src/next-step/runners/resume.ts) draws its "Payment pending" with the same box. The
// button that follows is the widget's gap below it, and so is the outcome below a message
// (the next checkout that "Try another card" asked for could not be made): its box, since
// the region, empty, stays on the page under every message.
export const outcomeStyles = css`
  [part~=outcome-region] {
    display: grid;
    gap: var(--_gap);
  }
  .next-step:not(:empty) ~ [part~=outcome-region],
  .status:not(:empty) ~ [part~=outcome-region] > .outcome-box {
    margin-top: var(--_gap);
  }
  .outcome-box {
    display: flex;
    align-items: flex-start;
    gap: 0.75em;
    padding: 0.25em 0.75em;
    border-left: 4px solid;
  }
  .outcome-box > svg {
    flex: none;
    width: 1.5em;
    height: 1.5em;
  }
  .outcome-text {
    display: grid;
    gap: 0.25em;
  }
  .outcome {
    font-weight: 600;
  }
  .outcome + p {
    color: var(--_fg);
  }
  .success {
    color: var(--_success);
  }
  .failure {
    color: var(--_error);
  }
`;

/** What the outcome region shows: a confirmed outcome, or a payment accepted and not final. */
type Shown = Extract<Lifecycle, { kind: 'done' | 'pending' }>;

/** Where the payment stands, when it is an outcome to show (the element shows none else). */
function shownOf(c: PayContext): Shown | undefined {
  const now = c.lifecycle;
  return now.kind === 'done' || now.kind === 'pending' ? now : undefined;
}

/** The mark beside a confirmed outcome: a tick in a circle, or a cross. */
const mark = (success: boolean) =>
  svg`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><circle cx="12" cy="12" r="10"/><path d="${success ? 'M7.5 12.5l3 3 6-6.5' : 'M9 9l6 6m0-6-6 6'}"/></svg>`;

/**
 * The outcome and what it means, the content of the region that announces them: paid, and
 * how much (written as the locale writes money); failed, and why; pending, and what happens
 * next (a boleto is confirmed once it is paid; any other payment when the bank answers).
 */
export function outcomeView(c: PayContext) {
  const now = shownOf(c);
  if (!now) return nothing;
  const s = c.strings;
  const { amount, currency } = now.checkout;
  const kind = now.kind === 'done' ? now.outcome : 'pending';
  const reason = now.kind === 'done' ? now.reason : undefined;
  const detail =
    kind === 'success'
      ? format(s.paid, { amount: formatMoney(c.locale.tag, amount, currency) })
      : kind === 'pending'
        ? now.checkout.boleto
          ? s.pendingVoucher
          : s.pendingLater
        : undefined;
  // A group named by the outcome and described by what it means: focus lands on it when
  // paying hid the control that had it and there is nothing to press (../checkout/focus.ts).
  return html`<div
    class="outcome-box ${kind}"
    role="group"
    tabindex="-1"
    aria-labelledby="outcome"
    aria-describedby="outcome-more"
  >
    ${kind === 'pending' ? nothing : mark(kind === 'success')}
    <div class="outcome-text">
      <p class="outcome" part="outcome" id="outcome">
        ${kind === 'success' ? s.success : kind === 'failure' ? s.failure : s.pending}
      </p>
      ${detail ? html`<p part="outcome-detail" id="outcome-more">${detail}</p>` : nothing}
      ${reason ? html`<p part="outcome-reason" id="outcome-more">${s[reason]}</p>` : nothing}
    </div>
  </div>`;
}

/**
 * After a failure, the button that pays the basket after all: another card, or another way.
 * While it brings the basket's next checkout (`retrying`) it stays, and says it is busy: the
 * form replaces it when that checkout is ready, with no placeholder between them.
 */
export function offerView(c: PayContext) {
  const now = shownOf(c);
  if (now?.kind !== 'done' || !now.offer) return nothing;
  return html`<button
    type="button"
    part="button retry"
    aria-disabled=${now.retrying ? 'true' : nothing}
    @click=${() => retry(c)}
  >
    ${c.strings[now.offer]}
  </button>`;
}
