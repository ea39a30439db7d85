// `<sandbox-webhooks>`: webhook faults (add, see, clear) and every delivery with each attempt:
// the merchant's answer or the error, when, how long it took and when the next is due, and the
// payload it sends. Any delivery can be replayed.

import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { act, send } from './api.ts';
import { attemptOutcome, badge, time } from './format.ts';
import { shared } from './styles.ts';
import type { Delivery, WebhookFault } from './types.ts';

const KINDS = [
  ['drop', 'Drop: never send'],
  ['duplicate', 'Duplicate: send twice'],
  ['delay', 'Delay: hold for a while'],
  ['reorder', 'Reorder: send after the next one'],
] as const;

/** What a notification is about, in a few words. */
function subject(payload: unknown): string {
  const p = (payload ?? {}) as {
    event_type?: unknown;
    id?: unknown;
    payload?: { client_transaction_id?: unknown; status?: unknown };
  };
  if (p.event_type === 'CHECKOUT_STATUS_CHANGED') return `Checkout ${String(p.id)} changed`;
  if (p.payload?.client_transaction_id !== undefined) {
    return `Reader checkout ${String(p.payload.client_transaction_id)} ${String(p.payload.status)}`;
  }
  return String(p.event_type ?? 'Notification');
}

export class SandboxWebhooks extends LitElement {
  static override styles = [
    shared,
    css`
      .list-heading {
        margin: 1.25rem 0 0.5rem;
      }
      .attempts {
        list-style: none;
        margin: 0.25rem 0 0;
        padding: 0;
      }
      h4 {
        margin: 0;
        font-size: 1rem;
      }
      .payload {
        margin: 0.25rem 0 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = {
    deliveries: { attribute: false },
    faults: { attribute: false },
  };

  declare deliveries: Delivery[];
  declare faults: WebhookFault[];

  constructor() {
    super();
    this.deliveries = [];
    this.faults = [];
  }

  override render(): TemplateResult {
    return html`
      <h2>Webhooks</h2>
      <section class="card" aria-labelledby="faults-heading">
        <h3 id="faults-heading">Webhook faults</h3>
        <p class="muted">The next deliveries go wrong on purpose, to test your handler.</p>
        <form class="inline" @submit=${this.#addFault}>
          <div class="field">
            <label for="kind">Fault</label>
            <select id="kind" name="kind">
              ${KINDS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="times">Deliveries</label>
            <input id="times" name="times" type="number" min="1" max="10000" value="1" required>
          </div>
          <div class="field">
            <label for="delay">Delay (ms)</label>
            <input id="delay" name="delayMs" type="number" min="0" max="600000" step="100" value="1000"
              aria-describedby="delay-hint">
          </div>
          <button class="primary" type="submit">Add fault</button>
        </form>
        <p id="delay-hint" class="muted">The delay applies to the Delay fault only.</p>
        ${
          this.faults.length === 0
            ? html`<p class="empty">No faults: every delivery goes out as usual.</p>`
            : html`
                <ul>
                  ${this.faults.map(
                    (f) => html`<li>${f.kind}${f.kind === 'delay' ? ` ${f.delayMs} ms` : ''}:
                      next ${f.remaining} ${f.remaining === 1 ? 'delivery' : 'deliveries'}</li>`,
                  )}
                </ul>
                <div class="actions">
                  <button type="button" @click=${this.#clearFaults}>Clear faults</button>
                </div>
              `
        }
      </section>
      <h3 class="list-heading">Deliveries</h3>
      ${
        this.deliveries.length === 0
          ? html`<p class="empty">No deliveries yet: a checkout with a return_url notifies it when its status changes.</p>`
          : html`<ol class="items">${this.deliveries.map((d) => this.#delivery(d))}</ol>`
      }
    `;
  }

  #delivery(d: Delivery): TemplateResult {
    return html`
      <li class="card" data-delivery-id=${d.id}>
        <div class="line">
          <h4>${subject(d.payload)}</h4>
          ${badge(d.state)}
          ${d.fault ? html`<span class="badge">fault: ${d.fault}</span>` : nothing}
        </div>
        <p class="mono muted">${d.id} → ${d.url}</p>
        <details>
          <summary>Payload<span class="visually-hidden"> of delivery ${d.id}</span></summary>
          <pre class="mono payload">${JSON.stringify(d.payload, null, 2)}</pre>
        </details>
        ${d.replay_of ? html`<p class="muted">Replay of ${d.replay_of}</p>` : nothing}
        ${d.duplicate_of ? html`<p class="muted">Duplicate of ${d.duplicate_of}</p>` : nothing}
        ${
          d.attempts.length === 0
            ? html`<p class="muted">${
                d.state === 'dropped'
                  ? 'Never sent.'
                  : `Not sent yet${d.due_at ? `: due ${time(d.due_at)}` : ''}.`
              }</p>`
            : html`<ol class="attempts">
                ${d.attempts.map(
                  (a, i) => html`<li>
                    Attempt ${i + 1}: <strong>${attemptOutcome(a)}</strong>
                    <span class="muted">in ${a.durationMs} ms, ${time(a.at)}${
                      a.nextAt
                        ? `; next ${time(a.nextAt)}${a.retryAfter ? ` (Retry-After: ${a.retryAfter})` : ''}`
                        : ''
                    }</span>
                  </li>`,
                )}
              </ol>`
        }
        <div class="actions">
          <button type="button" @click=${() => this.#replay(d)}>
            Replay<span class="visually-hidden"> delivery ${d.id}</span>
          </button>
        </div>
      </li>
    `;
  }

  #addFault(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const kind = String(data.get('kind'));
    const body = {
      kind,
      times: Number(data.get('times')),
      ...(kind === 'delay' && { delayMs: Number(data.get('delayMs')) }),
    };
    return act(this, `Fault added: ${kind}`, () => send('POST', '/sandbox/webhook-faults', body));
  }

  #clearFaults(): Promise<void> {
    return act(this, 'Faults cleared', () => send('DELETE', '/sandbox/webhook-faults'));
  }

  #replay(d: Delivery): Promise<void> {
    return act(this, `Delivery ${d.id} replayed`, () =>
      send('POST', `/sandbox/webhook-deliveries/${encodeURIComponent(d.id)}/replay`),
    );
  }
}
