// The confirmed outcome ("Payment successful", "Payment failed" and why, and the button that
// pays the basket after all) and "Payment pending": the pay part's (src/widget/parts/pay.ts),
// as only a payment ends in one.

import type { Strings } from '../locales/en.ts';
import { css, html, nothing } from '../parts/kit.ts';
import type { Lifecycle } from '../state.ts';

// The outcome is centred in its box, and why a payment failed is centred under it, as far
// from it as the button that follows is from the reason: the widget's gap.
export const outcomeStyles = css`
  [part~='outcome-region'] {
    display: grid;
    gap: var(--_gap);
    text-align: center;
  }
  .next-step:not(:empty) ~ [part~='outcome-region'] {
    margin-top: var(--_gap);
  }
  .outcome {
    padding: var(--_gap);
    border: 1px solid currentColor;
    border-radius: var(--_radius);
    font-weight: 600;
  }
  .outcome.success {
    color: var(--_success);
  }
  .outcome.failure {
    color: var(--_error);
  }
`;

/** What the outcome region shows: a confirmed outcome, or a payment accepted and not final. */
type Shown = Extract<Lifecycle, { kind: 'done' | 'pending' }>;

/** The outcome, and why a failure failed: the content of the region that announces them. */
export function outcomeView(now: Shown, s: Strings) {
  const kind = now.kind === 'done' ? now.outcome : 'pending';
  const reason = now.kind === 'done' ? now.reason : undefined;
  return html`<p class="outcome ${kind}" part="outcome">
      ${kind === 'success' ? s.success : kind === 'failure' ? s.failure : s.pending}
    </p>
    ${reason ? html`<p part="outcome-reason">${s[reason]}</p>` : nothing}`;
}

/** After a failure, the button that pays the basket after all: another card, or another way. */
export function offerView(now: Shown, s: Strings, retry: () => void) {
  const offer = now.kind === 'done' ? now.offer : undefined;
  if (!offer) return nothing;
  return html`<button type="button" part="button retry" @click=${retry}>${s[offer]}</button>`;
}
