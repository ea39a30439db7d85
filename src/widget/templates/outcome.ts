import { html, nothing, type TemplateResult } from 'lit';
import type { Strings } from '../locales/en.ts';

/** What the outcome region says: confirmed paid or failed, or accepted and not final. */
type OutcomeKind = 'success' | 'failure' | 'pending';

/** The live region: why a submit did not go through (empty, and hidden, otherwise). */
export function statusRegion(text: string): TemplateResult {
  return html`<p class="status" part="status" role="status" aria-live="polite">${text}</p>`;
}

/** "Try again" after a load that failed and may succeed on a second try. */
export function retryButton(s: Strings, retry: () => void): TemplateResult {
  return html`<button type="button" part="button retry" @click=${retry}>${s.retry}</button>`;
}

/** The confirmed outcome, in a region of its own that announces it. */
export function outcomeRegion(outcome: OutcomeKind | undefined, s: Strings): TemplateResult {
  return html`<div part="outcome-region" role="status">
    ${
      outcome
        ? html`<p class="outcome ${outcome}" part="outcome">
          ${outcome === 'success' ? s.success : outcome === 'failure' ? s.failure : s.pending}
        </p>`
        : nothing
    }
  </div>`;
}
