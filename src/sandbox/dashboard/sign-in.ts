// `<sandbox-sign-in>`: shown when the sandbox is bound to another interface than loopback.
// The key is sent once to trade it for the session cookie, then the field is emptied: the
// page keeps no key, and never shows one.

import { html, LitElement, type TemplateResult } from 'lit';
import { describe, signIn } from './api.ts';
import { shared } from './styles.ts';

export const SIGNED_IN_EVENT = 'sandbox-signed-in';

export class SandboxSignIn extends LitElement {
  static override styles = shared;
  static override properties = { error: { state: true }, busy: { state: true } };

  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    this.error = '';
    this.busy = false;
  }

  override render(): TemplateResult {
    return html`
      <section class="card" aria-labelledby="sign-in-heading">
        <h2 id="sign-in-heading">Sign in</h2>
        <p class="muted">This sandbox listens beyond this machine: enter its API key (an
          sk_test_ key) to open the dashboard.</p>
        <form class="inline" @submit=${this.#submit}>
          <div class="field">
            <label for="key">Sandbox API key</label>
            <input id="key" name="key" type="password" autocomplete="off" required
              aria-invalid=${this.error ? 'true' : 'false'} aria-describedby="key-error">
          </div>
          <button class="primary" type="submit" ?disabled=${this.busy}>Sign in</button>
        </form>
        <p id="key-error" role="alert">${this.error}</p>
      </section>
    `;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('key') as HTMLInputElement;
    const key = input.value.trim();
    input.value = '';
    this.busy = true;
    try {
      await signIn(key);
      this.error = '';
      this.dispatchEvent(new CustomEvent(SIGNED_IN_EVENT, { bubbles: true, composed: true }));
    } catch (error) {
      this.error = describe(error);
      input.focus();
    } finally {
      this.busy = false;
    }
  }
}
