// `<sandbox-requests>`: the request log, newest first, each request's body and its answer's
// (as the sandbox kept them: card numbers to their last four digits, no security code), and
// finding one request by the X-Request-Id every answer carries (a merchant's server can send
// its own and look it up here).

import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { time } from './format.ts';
import { shared } from './styles.ts';
import type { RequestEntry } from './types.ts';

/** Asks the dashboard to show only this request id (empty: all). */
export const FILTER_EVENT = 'sandbox-request-filter';

/** A body, as JSON laid out when it is whole (a cut one as kept). */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function body(
  title: string,
  text: string | undefined,
  id: string,
): TemplateResult | typeof nothing {
  if (text === undefined) return nothing;
  return html`<details>
    <summary>${title}<span class="visually-hidden"> of request ${id}</span></summary>
    <pre class="mono body">${pretty(text)}</pre>
  </details>`;
}

export class SandboxRequests extends LitElement {
  static override styles = [
    shared,
    css`
      .status {
        font-weight: 600;
      }
      .status.error {
        color: var(--bad-fg);
      }
      p {
        overflow-wrap: anywhere;
      }
      .body {
        margin: 0.25rem 0 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = {
    requests: { attribute: false },
    filter: { type: String },
  };

  declare requests: RequestEntry[];
  declare filter: string;

  constructor() {
    super();
    this.requests = [];
    this.filter = '';
  }

  override render(): TemplateResult {
    return html`
      <h2>Requests</h2>
      <form class="inline" role="search" @submit=${this.#find}>
        <div class="field">
          <label for="request-id">Request id</label>
          <input id="request-id" name="request_id" .value=${this.filter} autocomplete="off"
            spellcheck="false" maxlength="64" pattern="[A-Za-z0-9._:\\-]{1,64}"
            aria-describedby="request-id-hint">
        </div>
        <button class="primary" type="submit">Find</button>
        <button type="button" @click=${this.#showAll} ?disabled=${this.filter === ''}>Show all</button>
      </form>
      <p id="request-id-hint" class="muted">Every answer's X-Request-Id header. The last 1,000
        requests are kept, the newest 100 with their bodies (card numbers masked to their last
        four digits, no security code); the dashboard's own reads are not.</p>
      <p class="muted" aria-live="polite">
        ${
          this.filter === ''
            ? `${this.requests.length} ${this.requests.length === 1 ? 'request' : 'requests'}`
            : `${this.requests.length === 0 ? 'No request' : `${this.requests.length} found`} with id ${this.filter}`
        }
      </p>
      <ol class="items">${this.requests.map((r) => this.#request(r))}</ol>
    `;
  }

  #request(r: RequestEntry): TemplateResult {
    const status = r.status === 0 ? 'dropped' : String(r.status);
    return html`<li class="card">
      <div class="line">
        <span class="status ${r.status === 0 || r.status >= 400 ? 'error' : ''}">${status}</span>
        <span class="mono">${r.method} ${r.path}</span>
      </div>
      <div class="line muted">
        <span>${r.durationMs} ms</span>
        <span>${time(r.at)}</span>
        <span class="mono">${r.request_id}</span>
      </div>
      ${
        r.traceparent === undefined
          ? nothing
          : html`<div class="line muted"><span class="mono" title="traceparent">${r.traceparent}</span></div>`
      }
      ${body('Request body', r.request_body, r.request_id)}
      ${body('Response body', r.response_body, r.request_id)}
    </li>`;
  }

  #find(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    this.#filterBy(String(data.get('request_id') ?? '').trim());
  }

  #showAll(): void {
    this.#filterBy('');
  }

  #filterBy(id: string): void {
    this.dispatchEvent(
      new CustomEvent<string>(FILTER_EVENT, { detail: id, bubbles: true, composed: true }),
    );
  }
}
