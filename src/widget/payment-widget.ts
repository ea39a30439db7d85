import {
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import { nextStepStyles } from '../next-step/index.ts';
import type { ChallengeMode, NextStepContext } from '../next-step/types.ts';
import { CheckoutController } from './checkout/controller.ts';
import { FormController } from './form/controller.ts';
import { LocaleController } from './locales/controller.ts';
import type { Strings } from './locales/en.ts';
import { format, formatAmount } from './locales/load.ts';
import { styles } from './styles.ts';
import { fieldRows } from './templates/fields.ts';
import { methodChoice } from './templates/methods.ts';
import { outcomeRegion, retryButton, statusRegion } from './templates/outcome.ts';
import { saveCardOption, savedCardChoice } from './templates/saved-cards.ts';

/** JSON when it parses, else the text; a removed attribute (null) gives null. */
function parseOrder(value: string | null): unknown {
  try {
    // JSON.parse(null) reads "null".
    return JSON.parse(value as string);
  } catch {
    return value;
  }
}

function orderChanged(next: unknown, previous: unknown): boolean {
  return JSON.stringify(next) !== JSON.stringify(previous);
}

/**
 * An embeddable payment form: card fields, alternative methods, saved cards,
 * 3DS and bank redirects, talking only to the merchant's companion handler.
 *
 * @tag payment-widget
 * @fires payment-ready - fields rendered and payment methods known
 * @fires payment-change - the user edited a field
 * @fires payment-submit - the process request was sent
 * @fires payment-invalid - submit refused: fields invalid
 * @fires payment-challenge - 3DS challenge shown or redirect about to happen
 * @fires payment-success - the backend confirmed status PAID
 * @fires payment-pending - accepted but not final
 * @fires payment-failure - the backend confirmed FAILED or EXPIRED
 * @fires payment-error - network or backend error; the user can retry
 *
 * @csspart form - the form
 * @csspart methods - the payment method radio group
 * @csspart field - every field wrapper (also `field-{name}`, e.g. `field-number`)
 * @csspart label - every field label
 * @csspart input - every text input and select
 * @csspart icon - the card network icon
 * @csspart error - every field's error text
 * @csspart saved-cards - the saved card radio group
 * @csspart save-card - the "save this card" checkbox row
 * @csspart button - the pay button
 * @csspart status - the live region for submit errors
 * @csspart outcome - the confirmed outcome ("Payment successful" / "Payment failed")
 * @csspart next-step - where a 3DS challenge or a boleto voucher is shown
 *
 * @cssproperty --payment-widget-font-family
 * @cssproperty --payment-widget-font-size
 * @cssproperty --payment-widget-gap
 * @cssproperty --payment-widget-border-radius
 * @cssproperty --payment-widget-color - text
 * @cssproperty --payment-widget-muted-color - hints
 * @cssproperty --payment-widget-background
 * @cssproperty --payment-widget-field-background
 * @cssproperty --payment-widget-border-color
 * @cssproperty --payment-widget-accent-color - the button
 * @cssproperty --payment-widget-accent-text-color - the button's text
 * @cssproperty --payment-widget-error-color
 * @cssproperty --payment-widget-success-color
 * @cssproperty --payment-widget-focus-color
 */
export class PaymentWidget extends LitElement {
  static override styles = [styles, nextStepStyles];

  // A static table rather than decorators: it needs no compiler support (the
  // sources are built by Vite, esbuild and tsx alike), and mount() reads it to
  // know which options are the element's properties.
  static override properties: PropertyDeclarations = {
    checkoutId: { attribute: 'checkout-id' },
    // React and Vue hand over a new but equal object on every render: only a
    // different order is a reason to create another checkout.
    order: { converter: { fromAttribute: parseOrder }, hasChanged: orderChanged },
    endpoint: {},
    locale: {},
    paymentMethods: { attribute: 'payment-methods' },
    noSubmitButton: { type: Boolean, attribute: 'no-submit-button' },
    showZipCode: { type: Boolean, attribute: 'show-zip-code' },
    showEmail: { type: Boolean, attribute: 'show-email' },
    showInstallments: { type: Boolean, attribute: 'show-installments' },
    maxInstallments: { type: Number, attribute: 'max-installments' },
    customerId: { attribute: 'customer-id' },
    saveCard: { type: Boolean, attribute: 'save-card' },
    challenge: {},
    donate: { type: Boolean },
    translations: { attribute: false },
  };

  declare checkoutId: string | undefined;
  declare order: unknown;
  declare endpoint: string;
  declare locale: string | undefined;
  declare paymentMethods: string | undefined;
  declare noSubmitButton: boolean;
  declare showZipCode: boolean;
  declare showEmail: boolean;
  declare showInstallments: boolean;
  declare maxInstallments: number;
  declare customerId: string | undefined;
  declare saveCard: boolean;
  declare challenge: ChallengeMode;
  declare donate: boolean;
  /**
   * The merchant's own wording, over the locale's: `{ pay: 'Order for {amount}' }`.
   * Keys are those of `src/widget/locales/en.ts`; unknown keys are ignored.
   */
  declare translations: Partial<Strings> | undefined;

  /**
   * @internal How the page leaves for a bank or full-page 3DS; left unset, a
   * real top-level navigation. Tests set it so the test page stays put.
   */
  navigate: NextStepContext['navigate'];

  private readonly _locale = new LocaleController(this);
  private readonly _form = new FormController(this, () => this._locale.strings);
  private readonly _checkout = new CheckoutController(this, this._form, this._locale);

  constructor() {
    super();
    this.endpoint = '/payments';
    this.maxInstallments = 12;
    this.challenge = 'auto';
    this.noSubmitButton = false;
    this.showZipCode = false;
    this.showEmail = false;
    this.showInstallments = false;
    this.saveCard = false;
    this.donate = false;
  }

  /** Validates, then pays. Calling it again while a payment is in flight returns the same promise. */
  submit(): Promise<void> {
    return this._checkout.submit();
  }

  /** Empties every field and hides every error; leaves a confirmed outcome on screen. */
  reset(): void {
    this._checkout.leaveStep();
    this._form.reset();
  }

  /** Focuses the first thing to fill in (or the retry button when loading failed). */
  override focus(options?: FocusOptions): void {
    const target = this.renderRoot.querySelector<HTMLElement>('[data-field],:checked,button');
    (target ?? this).focus(options);
  }

  // Before the render, not after: what a load sets (the loading phase) then
  // shows in this update instead of scheduling another. (The locale controller
  // follows `locale` and `translations` by itself.)
  protected override willUpdate(changed: PropertyValues<this>): void {
    // After a confirmed outcome only another checkout-id loads: a new order then
    // would open a second checkout for a payment already made.
    const settled = this._checkout.phase === 'done';
    if (
      changed.has('checkoutId') ||
      (!settled && (changed.has('order') || changed.has('endpoint')))
    ) {
      void this._checkout.load();
    }
  }

  protected override render(): TemplateResult {
    const s = this._locale.strings;
    const { phase, outcome, retryable } = this._checkout;
    const form = this._form;
    const showForm = phase === 'form' || phase === 'busy' || phase === 'step';
    return html`
      ${phase === 'loading' ? html`<p class="loading" part="loading">${s.loading}</p>` : nothing}
      <form
        part="form"
        novalidate
        ?hidden=${!showForm || phase === 'step'}
        aria-busy=${phase === 'busy' ? 'true' : 'false'}
        @submit=${this._onSubmit}
        @beforeinput=${form.onBeforeInput}
        @input=${form.onInput}
        @focusout=${form.onFocusOut}
      >
        ${showForm ? this._renderFields() : nothing}
        <button type="submit" part="button" ?hidden=${this.noSubmitButton} ?disabled=${phase !== 'form'}>
          ${phase === 'busy' ? s.processing : this._buttonText()}
        </button>
      </form>
      <div class="next-step" part="next-step"></div>
      ${statusRegion(form.status)}
      ${phase === 'broken' && retryable ? retryButton(s, () => this._checkout.load()) : nothing}
      ${outcomeRegion(phase === 'done' || phase === 'pending' ? outcome : undefined, s)}
    `;
  }

  private _renderFields(): TemplateResult {
    const s = this._locale.strings;
    const form = this._form;
    const card = form.method === 'card';
    return html`
      ${methodChoice(form.methods, form.method, s, form.chooseMethod)}
      ${card ? savedCardChoice(form.savedCards, form.savedToken, s, form.chooseSaved) : nothing}
      ${fieldRows(form.fields(), {
        strings: s,
        network: form.network,
        cvvLength: form.cvvLength(),
        maxInstallments: this.maxInstallments,
        errorShown: (field) => form.errorShown(field),
        message: (field) => form.message(field),
      })}
      ${card && this.saveCard && form.savedToken === '' ? saveCardOption(s) : nothing}
    `;
  }

  private _onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    void this.submit();
  }

  private _buttonText(): string {
    const { checkout } = this._checkout;
    const amount = formatAmount(this._locale.tag, checkout?.amount, checkout?.currency);
    const s = this._locale.strings;
    return format(this.donate ? s.donate : s.pay, { amount }).trim();
  }
}
