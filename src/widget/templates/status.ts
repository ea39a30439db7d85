import { html, type TemplateResult } from 'lit';

/** The live region: why a submit did not go through (empty, and hidden, otherwise). */
export function statusRegion(text: string): TemplateResult {
  return html`<p class="status" part="status" role="status">${text}</p>`;
}

/** "Try again" after a load that failed and may succeed on a second try, or a part that did not come. */
export function retryButton(label: string, retry: () => void): TemplateResult {
  return html`<button type="button" part="button retry" @click=${retry}>${label}</button>`;
}
