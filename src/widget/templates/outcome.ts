import { html, nothing, type TemplateResult } from 'lit';
import type { StringName, Strings } from '../locales/en.ts';

/** What the outcome region says: confirmed paid or failed, or accepted and not final. */
type OutcomeKind = 'success' | 'failure' | 'pending';

/** The live region: why a submit did not go through (empty, and hidden, otherwise). */
export function statusRegion(text: string): TemplateResult {
  return html`<p class="status" part="status" role="status" aria-live="polite">${text}</p>`;
}

/**
 * "Try again" after a load that failed and may succeed on a second try, or "Try another
 * card" after a payment that failed.
 */
export function retryButton(label: string, retry: () => void): TemplateResult {
  return html`<button type="button" part="button retry" @click=${retry}>${label}</button>`;
}

/** The confirmed outcome, and why a failure failed, in a region of its own that announces them. */
export function outcomeRegion(
  outcome: OutcomeKind | undefined,
  s: Strings,
  reason?: StringName,
): TemplateResult {
  return html`<div part="outcome-region" role="status">
    ${
      outcome
        ? html`<p class="outcome ${outcome}" part="outcome">
          ${outcome === 'success' ? s.success : outcome === 'failure' ? s.failure : s.pending}
        </p>`
        : nothing
    }
    ${reason ? html`<p part="outcome-reason">${s[reason]}</p>` : nothing}
  </div>`;
}
