// `<sandbox-checkouts>`: every checkout, newest first, with its status, transactions, open
// next step and status history, and what a developer does to one: expire it, settle its
// boleto, refund a payment.

import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { act, send } from './api.ts';
import { amount, badge, time } from './format.ts';
import { shared } from './styles.ts';
import type { OverviewCheckout, TransactionView } from './types.ts';

export class SandboxCheckouts extends LitElement {
  static override styles = shared;
  static override properties = {
    checkouts: { attribute: false },
    total: { type: Number },
  };

  declare checkouts: OverviewCheckout[];
  declare total: number;

  constructor() {
    super();
    this.checkouts = [];
    this.total = 0;
  }

  override render(): TemplateResult {
    const shown = this.checkouts.length;
    return html`
      <h2>Checkouts</h2>
      ${
        shown === 0
          ? html`<p class="empty">No checkouts yet. Create one through the API or with
              <code>payment-sandbox trigger checkout.paid</code>.</p>`
          : html`
              ${this.total > shown ? html`<p class="muted">The newest ${shown} of ${this.total}.</p>` : nothing}
              <ul class="items">${this.checkouts.map((c) => this.#checkout(c))}</ul>
            `
      }
    `;
  }

  #checkout(c: OverviewCheckout): TemplateResult {
    return html`
      <li class="card" data-checkout-id=${c.id}>
        <div class="line">
          <h3>${amount(c.amount, c.currency)} · ${c.checkout_reference}</h3>
          ${badge(c.status)}
        </div>
        <p class="mono muted">${c.id}</p>
        ${c.description ? html`<p>${c.description}</p>` : nothing}
        ${this.#nextStep(c)}
        <div class="actions">${this.#actions(c)}</div>
        <details>
          <summary>Details<span class="visually-hidden"> of ${c.checkout_reference}</span></summary>
          <dl>
            <dt>Created</dt>
            <dd>${time(c.date)}</dd>
            ${c.valid_until ? html`<dt>Valid until</dt><dd>${time(c.valid_until)}</dd>` : nothing}
            ${c.return_url ? html`<dt>Webhook</dt><dd class="mono">${c.return_url}</dd>` : nothing}
            ${c.redirect_url ? html`<dt>Redirect</dt><dd class="mono">${c.redirect_url}</dd>` : nothing}
            ${c.customer_id ? html`<dt>Customer</dt><dd class="mono">${c.customer_id}</dd>` : nothing}
          </dl>
          <h4>Status history</h4>
          <ol>
            ${c.status_history.map((s) => html`<li>${badge(s.status)} <span class="muted">${time(s.at)}</span></li>`)}
          </ol>
          <h4>Transactions</h4>
          ${
            c.transactions.length === 0
              ? html`<p class="empty">None yet.</p>`
              : html`<ul>${c.transactions.map((t) => this.#transaction(t))}</ul>`
          }
        </details>
      </li>
    `;
  }

  #nextStep(c: OverviewCheckout): TemplateResult | typeof nothing {
    if (c.next_step) {
      const label = c.next_step.kind === '3ds' ? '3DS challenge' : `${c.next_step.kind} bank page`;
      return html`<p>Waiting for the shopper:
        <a href=${c.next_step.url} target="_blank" rel="noopener noreferrer">open the ${label}</a></p>`;
    }
    if (c.boleto && c.status === 'PENDING') {
      return html`<p>Boleto issued:
        <a href=${c.boleto.url} target="_blank" rel="noopener noreferrer">open the voucher</a></p>`;
    }
    return nothing;
  }

  #actions(c: OverviewCheckout): TemplateResult[] {
    const name = html`<span class="visually-hidden"> ${c.checkout_reference}</span>`;
    const buttons: TemplateResult[] = [];
    if (c.actions.settle) {
      buttons.push(
        html`<button type="button" @click=${() => this.#settle(c, 'PAID')}>Pay boleto${name}</button>`,
        html`<button type="button" @click=${() => this.#settle(c, 'FAILED')}>Fail boleto${name}</button>`,
      );
    }
    if (c.actions.expire) {
      buttons.push(
        html`<button type="button" @click=${() => this.#expire(c)}>Expire${name}</button>`,
      );
    }
    for (const t of c.transactions) {
      if (t.type !== 'PAYMENT' || t.refundable <= 0) continue;
      buttons.push(
        html`<button type="button" @click=${() => this.#refund(c, t)}>
          Refund ${amount(t.refundable, t.currency)}${name}
        </button>`,
      );
    }
    return buttons;
  }

  #transaction(t: TransactionView): TemplateResult {
    return html`<li>
      <span class="line">
        <span>${t.type === 'REFUND' ? 'Refund' : t.payment_type}</span>
        <span>${amount(t.amount, t.currency)}</span>
        ${badge(t.status)}
        ${t.card ? html`<span>${t.card.type} •••• ${t.card.last_4_digits}</span>` : nothing}
        <span class="mono muted">${t.transaction_code}</span>
      </span>
    </li>`;
  }

  #settle(c: OverviewCheckout, status: 'PAID' | 'FAILED'): Promise<void> {
    return act(this, `Boleto of ${c.checkout_reference} settled ${status}`, () =>
      send('POST', `/sandbox/checkouts/${encodeURIComponent(c.id)}/settle`, { status }),
    );
  }

  #expire(c: OverviewCheckout): Promise<void> {
    return act(this, `${c.checkout_reference} expired`, () =>
      send('DELETE', `/v0.1/checkouts/${encodeURIComponent(c.id)}`),
    );
  }

  #refund(c: OverviewCheckout, t: TransactionView): Promise<void> {
    return act(this, `${c.checkout_reference} refunded`, () =>
      send('POST', `/v0.1/me/refund/${encodeURIComponent(t.id)}`, {}),
    );
  }
}
