// `<sandbox-toolbar>`: the sandbox clock (its time, moving it forward) and reset, the two
// actions that change everything at once.

import { html, LitElement, type TemplateResult } from 'lit';
import { act, send } from './api.ts';
import { offset, time } from './format.ts';
import { shared } from './styles.ts';

const STEPS = [
  [60_000, '1 minute'],
  [5 * 60_000, '5 minutes'],
  [3_600_000, '1 hour'],
  [86_400_000, '1 day'],
  [7 * 86_400_000, '7 days'],
  [30 * 86_400_000, '30 days'],
] as const;

export class SandboxToolbar extends LitElement {
  static override styles = shared;
  static override properties = {
    now: { type: String },
    offsetMs: { type: Number },
    confirming: { state: true },
  };

  declare now: string;
  declare offsetMs: number;
  declare confirming: boolean;

  constructor() {
    super();
    this.now = '';
    this.offsetMs = 0;
    this.confirming = false;
  }

  override render(): TemplateResult {
    return html`
      <section class="card" aria-labelledby="clock-heading">
        <h2 id="clock-heading">Sandbox clock</h2>
        <p><time datetime=${this.now}>${this.now ? time(this.now) : '…'}</time>
          <span class="muted">(${offset(this.offsetMs)})</span></p>
        <form class="inline" @submit=${this.#advance}>
          <div class="field">
            <label for="advance">Move forward by</label>
            <select id="advance" name="advanceMs">
              ${STEPS.map(([ms, label]) => html`<option value=${ms}>${label}</option>`)}
            </select>
          </div>
          <button class="primary" type="submit">Advance clock</button>
        </form>
        <div class="actions">
          ${
            this.confirming
              ? html`
                  <button class="primary" type="button" @click=${this.#reset}>Reset everything</button>
                  <button type="button" @click=${this.#cancel}>Keep it</button>
                  <p class="muted">Forgets every checkout, customer, reader, delivery, fault and
                    request, and puts the clock back.</p>
                `
              : html`<button type="button" @click=${this.#confirm}>Reset sandbox…</button>`
          }
        </div>
      </section>
    `;
  }

  #advance(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const advanceMs = Number(data.get('advanceMs'));
    const label = STEPS.find(([ms]) => ms === advanceMs)?.[1] ?? `${advanceMs} ms`;
    return act(this, `Clock moved forward ${label}`, () =>
      send('POST', '/sandbox/clock', { advanceMs }),
    );
  }

  async #confirm(): Promise<void> {
    this.confirming = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('button.primary[type=button]')?.focus();
  }

  async #cancel(): Promise<void> {
    this.confirming = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus();
  }

  async #reset(): Promise<void> {
    await act(this, 'Sandbox reset', () => send('POST', '/sandbox/reset'));
    await this.#cancel();
  }
}
