// The confirmed outcome ("Payment successful", "Payment failed" and why) and "Payment
// pending": shown once a payment is over, so loaded when one is sent (or when the widget
// opens on a checkout that is already over), not with the form.
import type { StringName, Strings } from '../locales/en.ts';
import { css, html, nothing } from './kit.ts';

/** What the outcome region says: confirmed paid or failed, or accepted and not final. */
export type OutcomeKind = 'success' | 'failure' | 'pending';

// The outcome is centred in its box, and why a payment failed is centred under it, as far
// from it as the button that follows is from the reason: the widget's gap. After a next
// step (a boleto's voucher stays on screen above "Payment pending") the same gap.
export const styles = css`
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

/** The outcome, and why a failure failed: the content of the region that announces them. */
export function outcomeView(outcome: OutcomeKind, s: Strings, reason?: StringName) {
  return html`<p class="outcome ${outcome}" part="outcome">
      ${outcome === 'success' ? s.success : outcome === 'failure' ? s.failure : s.pending}
    </p>
    ${reason ? html`<p part="outcome-reason">${s[reason]}</p>` : nothing}`;
}
