// `<sandbox-customers>`: customers and their saved cards (network and last four digits only:
// the sandbox never keeps more).

import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { badge, time } from './format.ts';
import { shared } from './styles.ts';
import type { CustomerView } from './types.ts';

export class SandboxCustomers extends LitElement {
  static override styles = shared;
  static override properties = { customers: { attribute: false } };

  declare customers: CustomerView[];

  constructor() {
    super();
    this.customers = [];
  }

  override render(): TemplateResult {
    return html`
      <h2>Customers</h2>
      ${
        this.customers.length === 0
          ? html`<p class="empty">No customers yet (POST /v0.1/customers).</p>`
          : html`<ul class="items">${this.customers.map((c) => this.#customer(c))}</ul>`
      }
    `;
  }

  #customer(c: CustomerView): TemplateResult {
    const p = c.personal_details;
    const name = [p?.first_name, p?.last_name].filter(Boolean).join(' ');
    return html`<li class="card">
      <h3 class="mono">${c.customer_id}</h3>
      ${name || p?.email ? html`<p>${name}${name && p?.email ? ' · ' : ''}${p?.email ?? ''}</p>` : nothing}
      ${
        c.instruments.length === 0
          ? html`<p class="muted">No saved cards.</p>`
          : html`<ul>
              ${c.instruments.map(
                (i) => html`<li>
                  <span class="line">
                    <span>${i.card.type} •••• ${i.card.last_4_digits}</span>
                    ${badge(i.active ? 'active' : 'deactivated')}
                    <span class="muted">mandate ${i.mandate.status}, saved ${time(i.created_at)}</span>
                  </span>
                </li>`,
              )}
            </ul>`
      }
    </li>`;
  }
}
