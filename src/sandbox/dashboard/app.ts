// `<sandbox-dashboard>`: the page. A header with the live status, the sections (checkouts,
// webhooks, requests, customers, readers; one shown at a time, chosen by the URL's #hash so
// that a link or the back button lands on one), the clock and reset beside them, and the
// status lines that announce what an action came to.

import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { NOTICE_EVENT, type NoticeDetail } from './api.ts';
import { type Connection, LiveData } from './live-data.ts';
import { FILTER_EVENT } from './requests-view.ts';
import { SIGNED_IN_EVENT } from './sign-in.ts';
import { shared } from './styles.ts';

const SECTIONS = ['checkouts', 'webhooks', 'requests', 'customers', 'readers'] as const;
type Section = (typeof SECTIONS)[number];

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  'signed-out': 'Signed out',
};

function sectionFromHash(): Section {
  const name = location.hash.slice(1);
  return (SECTIONS as readonly string[]).includes(name) ? (name as Section) : 'checkouts';
}

export class SandboxDashboard extends LitElement {
  static override styles = [
    shared,
    css`
      :host {
        max-width: 80rem;
        margin: 0 auto;
        padding: 0.75rem;
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        justify-content: space-between;
        gap: 0.25rem 1rem;
      }
      h1 {
        font-size: 1.375rem;
        margin: 0;
      }
      nav ul {
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
        margin: 0.75rem 0;
        padding: 0;
      }
      nav a {
        display: inline-block;
        padding: 0.25rem 0.75rem;
        border-radius: 999px;
        text-decoration: none;
        border: 1px solid var(--border);
        background: var(--card);
      }
      nav a[aria-current='page'] {
        background: var(--accent);
        border-color: var(--accent);
        color: var(--on-accent);
        font-weight: 600;
      }
      .layout {
        display: grid;
        gap: 1rem;
        grid-template-columns: minmax(0, 1fr);
        align-items: start;
      }
      @media (min-width: 60rem) {
        .layout {
          grid-template-columns: minmax(0, 1fr) 20rem;
        }
        sandbox-toolbar {
          order: 2;
          position: sticky;
          top: 0.75rem;
        }
      }
      .notices p {
        margin: 0 0 0.5rem;
        overflow-wrap: anywhere;
      }
      .notices p:empty {
        margin: 0;
      }
      .notices .error {
        color: var(--bad-fg);
        font-weight: 600;
      }
    `,
  ];
  static override properties = {
    section: { state: true },
    notice: { state: true },
    alert: { state: true },
  };

  declare section: Section;
  declare notice: string;
  declare alert: string;
  readonly #live = new LiveData(this);

  constructor() {
    super();
    this.section = sectionFromHash();
    this.notice = '';
    this.alert = '';
    this.addEventListener(NOTICE_EVENT, (event) =>
      this.#onNotice(event as CustomEvent<NoticeDetail>),
    );
    this.addEventListener(FILTER_EVENT, (event) => this.#onFilter(event as CustomEvent<string>));
    this.addEventListener(SIGNED_IN_EVENT, () => void this.#live.start());
  }

  readonly #onHash = () => {
    this.section = sectionFromHash();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.#onHash);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.#onHash);
    super.disconnectedCallback();
  }

  override render(): TemplateResult {
    const live = this.#live;
    return html`
      <header>
        <h1>payment-sandbox</h1>
        <p role="status" class="muted">${CONNECTION_TEXT[live.connection]}</p>
      </header>
      ${live.connection === 'signed-out' ? nothing : this.#nav()}
      <main>
        <div class="notices">
          <p role="status">${this.notice}</p>
          <p role="alert" class="error">${this.alert || live.problem}</p>
        </div>
        ${live.connection === 'signed-out' ? html`<sandbox-sign-in></sandbox-sign-in>` : this.#body()}
      </main>
    `;
  }

  #nav(): TemplateResult {
    const overview = this.#live.overview;
    const counts: Partial<Record<Section, number>> = {
      checkouts: overview?.checkouts_total,
      webhooks: this.#live.deliveries.length,
    };
    return html`<nav aria-label="Sections">
      <ul>
        ${SECTIONS.map(
          (s) => html`<li>
            <a href="#${s}" aria-current=${s === this.section ? 'page' : 'false'}>
              ${s[0]!.toUpperCase()}${s.slice(1)}${counts[s] === undefined ? '' : ` (${counts[s]})`}
            </a>
          </li>`,
        )}
      </ul>
    </nav>`;
  }

  #body(): TemplateResult {
    const live = this.#live;
    const overview = live.overview;
    return html`<div class="layout">
      <sandbox-toolbar .now=${overview?.now ?? ''} .offsetMs=${overview?.clock_offset_ms ?? 0}></sandbox-toolbar>
      <section aria-label="Sandbox contents">${this.#section()}</section>
    </div>`;
  }

  #section(): TemplateResult {
    const live = this.#live;
    const overview = live.overview;
    switch (this.section) {
      case 'checkouts':
        return html`<sandbox-outcomes .rules=${live.outcomes}></sandbox-outcomes>
          <sandbox-checkouts .checkouts=${overview?.checkouts ?? []}
          .total=${overview?.checkouts_total ?? 0}></sandbox-checkouts>`;
      case 'webhooks':
        return html`<sandbox-webhooks .deliveries=${live.deliveries} .faults=${live.faults}></sandbox-webhooks>`;
      case 'requests':
        return html`<sandbox-requests .requests=${live.requests} .filter=${live.requestFilter}></sandbox-requests>`;
      case 'customers':
        return html`<sandbox-customers .customers=${overview?.customers ?? []}></sandbox-customers>`;
      case 'readers':
        return html`<sandbox-readers .readers=${overview?.readers ?? []} .devices=${overview?.devices ?? []}
          .checkouts=${overview?.reader_checkouts ?? []}></sandbox-readers>`;
    }
  }

  #onNotice({ detail }: CustomEvent<NoticeDetail>): void {
    // Emptied first: the same message twice in a row is announced again.
    this.notice = '';
    this.alert = '';
    void this.updateComplete.then(() => {
      if (detail.error) this.alert = detail.message;
      else this.notice = detail.message;
    });
  }

  #onFilter({ detail }: CustomEvent<string>): void {
    this.#live.requestFilter = detail;
    void this.#live.read('requests');
  }
}
