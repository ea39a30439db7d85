// `<sandbox-outcomes>`: the outcome control (POST /sandbox/outcomes), above the checkouts:
// the next card payments that match (a card by its number or last 4 digits, an amount, or
// any) are declined, challenged, fail with a 3DS technical error or are paid, whatever the
// card table says. What is still to apply is listed, and can be cleared.

import { html, LitElement, type TemplateResult } from 'lit';
import { act, send } from './api.ts';
import { shared } from './styles.ts';
import type { OutcomeRule } from './types.ts';

const OUTCOMES = [
  ['declined', 'Declined'],
  ['challenge', '3DS challenge'],
  ['technical_error', '3DS technical error'],
  ['paid', 'Paid'],
] as const;

const NAME = Object.fromEntries(OUTCOMES) as Record<string, string>;

export class SandboxOutcomes extends LitElement {
  static override styles = [shared];
  static override properties = { rules: { attribute: false } };

  declare rules: OutcomeRule[];

  constructor() {
    super();
    this.rules = [];
  }

  override render(): TemplateResult {
    return html`
      <section class="card" aria-labelledby="outcomes-heading">
        <h3 id="outcomes-heading">Card outcomes</h3>
        <p class="muted">
          The next card payments that match get this outcome instead of the test card's: decline
          one, then pay with another card.
        </p>
        <form class="inline" @submit=${this.#add}>
          <div class="field">
            <label for="outcome">Outcome</label>
            <select id="outcome" name="outcome">
              ${OUTCOMES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="outcome-card">Card (number or last 4)</label>
            <input id="outcome-card" name="card" inputmode="numeric" pattern="\\d{4}|\\d{12,19}"
              aria-describedby="outcome-card-hint">
          </div>
          <div class="field">
            <label for="outcome-amount">Amount</label>
            <input id="outcome-amount" name="amount" type="number" min="0.001" step="0.001"
              aria-describedby="outcome-amount-hint">
          </div>
          <div class="field">
            <label for="outcome-times">Payments</label>
            <input id="outcome-times" name="times" type="number" min="1" max="1000" value="1" required>
          </div>
          <button class="primary" type="submit">Set outcome</button>
        </form>
        <p id="outcome-card-hint" class="muted">Leave card and amount empty for any payment.</p>
        <p id="outcome-amount-hint" class="muted">
          In the payment's currency: 1000 yen, 5.125 dinars.
        </p>
        ${
          this.rules.length === 0
            ? html`<p class="empty">None set: every card pays as its test card says.</p>`
            : html`
                <ul>
                  ${this.rules.map(
                    (r) =>
                      html`<li>${NAME[r.outcome] ?? r.outcome}${r.card ? ` for card …${r.card.slice(-4)}` : ''}${
                        r.amount === undefined ? '' : ` at ${r.amount}`
                      }: next ${r.remaining} ${r.remaining === 1 ? 'payment' : 'payments'}</li>`,
                  )}
                </ul>
                <div class="actions">
                  <button type="button" @click=${this.#clear}>Clear outcomes</button>
                </div>
              `
        }
      </section>
    `;
  }

  #add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const outcome = String(data.get('outcome'));
    const card = String(data.get('card') ?? '').replace(/\s/g, '');
    const amount = String(data.get('amount') ?? '');
    const body = {
      outcome,
      times: Number(data.get('times')),
      ...(card === '' ? {} : { card }),
      ...(amount === '' ? {} : { amount: Number(amount) }),
    };
    return act(this, `Outcome set: ${NAME[outcome] ?? outcome}`, () =>
      send('POST', '/sandbox/outcomes', body),
    );
  }

  #clear(): Promise<void> {
    return act(this, 'Outcomes cleared', () => send('DELETE', '/sandbox/outcomes'));
  }
}
