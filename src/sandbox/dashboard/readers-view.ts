// `<sandbox-readers>`: readers (pairings), the simulated devices and what their screens show
// (a button switches a new one on), and the reader checkouts.

import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { act, send } from './api.ts';
import { amount, badge, time } from './format.ts';
import { shared } from './styles.ts';
import type { DeviceView, ReaderCheckoutView, ReaderView } from './types.ts';

export class SandboxReaders extends LitElement {
  static override styles = shared;
  static override properties = {
    readers: { attribute: false },
    devices: { attribute: false },
    checkouts: { attribute: false },
  };

  declare readers: ReaderView[];
  declare devices: DeviceView[];
  declare checkouts: ReaderCheckoutView[];

  constructor() {
    super();
    this.readers = [];
    this.devices = [];
    this.checkouts = [];
  }

  override render(): TemplateResult {
    return html`
      <h2>Readers</h2>
      <section aria-labelledby="devices-heading">
        <h3 id="devices-heading">Simulated devices</h3>
        ${
          this.devices.length === 0
            ? html`<p class="empty">No devices yet.</p>`
            : html`<ul class="items">${this.devices.map((d) => this.#device(d))}</ul>`
        }
        <button type="button" @click=${this.#switchOn}>Switch on a simulated reader</button>
      </section>
      <section aria-labelledby="readers-heading">
        <h3 id="readers-heading">Readers</h3>
        ${
          this.readers.length === 0
            ? html`<p class="empty">No readers: your server pairs one through the Readers API
                with a device's pairing code.</p>`
            : html`<ul class="items">${this.readers.map((r) => this.#reader(r))}</ul>`
        }
      </section>
      <section aria-labelledby="reader-checkouts-heading">
        <h3 id="reader-checkouts-heading">Reader checkouts</h3>
        ${
          this.checkouts.length === 0
            ? html`<p class="empty">No reader checkouts yet.</p>`
            : html`<ul class="items">${this.checkouts.map((c) => this.#checkout(c))}</ul>`
        }
      </section>
    `;
  }

  #device(d: DeviceView): TemplateResult {
    return html`<li class="card">
      <div class="line">
        <span class="mono">${d.identifier}</span>
        ${badge(d.online ? 'online' : 'offline')}
        <span>${d.model} ${d.software_version}</span>
      </div>
      <p>Screen: ${d.screen.replaceAll('_', ' ')}${
        d.pairing_code
          ? html`, pairing code <strong class="mono">${d.pairing_code}</strong>
          <span class="muted">until ${time(d.pairing_code_expires_at ?? '')}</span>`
          : nothing
      }</p>
    </li>`;
  }

  #switchOn(): Promise<void> {
    return act(this, 'A simulated reader is on: its screen shows a pairing code', () =>
      send('POST', '/sandbox/devices', {}),
    );
  }

  #reader(r: ReaderView): TemplateResult {
    return html`<li class="card">
      <div class="line"><span>${r.name}</span>${badge(r.status)}</div>
      <p class="mono muted">${r.id} · device ${r.device_identifier}</p>
    </li>`;
  }

  #checkout(c: ReaderCheckoutView): TemplateResult {
    const { value, currency, minor_unit } = c.total_amount;
    return html`<li class="card">
      <div class="line">
        <span>${amount(value / 10 ** minor_unit, currency)}</span>
        ${badge(c.status)}
        ${c.failure ? html`<span class="muted">${c.failure}</span>` : nothing}
      </div>
      <p class="mono muted">${c.client_transaction_id} · ${time(c.created_at)}</p>
    </li>`;
  }
}
