import {
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import type { ChallengeMode, NextStepContext } from '../next-step/types.ts';
import { differs } from '../shared/record.ts';
import { CheckoutController } from './checkout/controller.ts';
import { FormController } from './form/controller.ts';
import { LocaleController } from './locales/controller.ts';
import type { Strings } from './locales/en.ts';
import { format, formatMoney } from './locales/load.ts';
import { PartsController } from './parts/controller.ts';
import { expectedMethods, type Payable, payable } from './state.ts';
import { styles } from './styles.ts';
import { fieldRows } from './templates/fields.ts';
import { methodChoice } from './templates/methods.ts';
import { saveCardOption } from './templates/saved-cards.ts';
import { retryButton, statusRegion } from './templates/status.ts';

/**
 * `order` as the attribute and the property are read alike: text that parses as JSON is the
 * value it spells (frameworks set properties from their templates, Svelte the JSON text of
 * an attribute), other text stays text, anything else stays as it is.
 */
function readOrder(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    // Text on purpose, or JSON gone wrong ('{"sku": mug}'): the developer hears of the
    // latter once the pay part is in (checkout/settings.ts).
    return value;
  }
}

/**
 * An embeddable payment form: card fields, alternative methods, saved cards,
 * 3DS and bank redirects, talking only to the merchant's companion handler.
 *
 * @tag payment-widget
 * @fires {CustomEvent<PaymentReadyDetail>} payment-ready - fields rendered and payment methods known
 * @fires {CustomEvent<PaymentChangeDetail>} payment-change - the user edited a field
 * @fires {CustomEvent<PaymentSubmitDetail>} payment-submit - the process request was sent
 * @fires {CustomEvent<PaymentInvalidDetail>} payment-invalid - submit refused: fields invalid
 * @fires {CustomEvent<PaymentChallengeDetail>} payment-challenge - 3DS challenge shown or redirect about to happen
 * @fires {CustomEvent<PaymentCheckoutDetail>} payment-success - the backend confirmed status PAID
 * @fires {CustomEvent<PaymentCheckoutDetail>} payment-pending - accepted but not final (boleto voucher, timeout while PENDING)
 * @fires {CustomEvent<PaymentCheckoutDetail>} payment-failure - the backend confirmed FAILED or EXPIRED, or the shopper failed 3DS
 * @fires {CustomEvent<PaymentErrorDetail>} payment-error - network or backend error; the shopper can retry
 *
 * @csspart loading - the "Loading…" text while the checkout loads (for screen readers: meanwhile the form shows as an inert placeholder)
 * @csspart form - the form
 * @csspart methods - the payment method radio group
 * @csspart method - each payment method choice
 * @csspart field - every field wrapper (each also has its own `field-{name}` part)
 * @csspart field-number - the card number field
 * @csspart field-expiry - the expiry date field
 * @csspart field-cvv - the security code field
 * @csspart field-name - the name on card field
 * @csspart field-zip - the ZIP code field
 * @csspart field-email - the email field
 * @csspart field-installments - the installments field
 * @csspart field-firstName - the first name field (alternative methods)
 * @csspart field-lastName - the last name field (alternative methods)
 * @csspart field-taxId - the tax id field (boleto)
 * @csspart field-line1 - the address line field (boleto)
 * @csspart field-city - the city field (boleto)
 * @csspart field-state - the state field (boleto)
 * @csspart field-postalCode - the postal code field (boleto)
 * @csspart label - every field label
 * @csspart input - every text input and select
 * @csspart icon - the card network icon
 * @csspart error - every field's error text
 * @csspart saved-cards - the saved card radio group
 * @csspart save-card - the "save this card" checkbox row
 * @csspart button - the pay button, and the retry button
 * @csspart retry - the retry button shown when loading failed, and "Try another card" (or "Try another way to pay") after a failure or beside a step shown again
 * @csspart outcome-detail - under the outcome: the amount paid, or what happens next while it is pending
 * @csspart outcome-reason - why a payment failed, under "Payment failed"
 * @csspart status - the live region for submit errors
 * @csspart outcome-region - the live region that announces the confirmed outcome
 * @csspart outcome - the confirmed outcome ("Payment successful" / "Payment failed")
 * @csspart next-step - where a 3DS challenge or a boleto voucher is shown
 *
 * @cssproperty --payment-widget-font-family - the font
 * @cssproperty --payment-widget-font-size - the size text and spaces follow (default: the shopper's font size, never the page root's)
 * @cssproperty --payment-widget-gap - the space between fields
 * @cssproperty --payment-widget-border-radius - the corners of fields and the button
 * @cssproperty --payment-widget-color - text
 * @cssproperty --payment-widget-muted-color - hints
 * @cssproperty --payment-widget-background - the widget's background
 * @cssproperty --payment-widget-field-background - the fields' background
 * @cssproperty --payment-widget-border-color - the fields' borders
 * @cssproperty --payment-widget-accent-color - the button
 * @cssproperty --payment-widget-accent-text-color - the button's text
 * @cssproperty --payment-widget-error-color - error texts and invalid fields
 * @cssproperty --payment-widget-success-color - the "Payment successful" outcome
 * @cssproperty --payment-widget-focus-color - the focus ring
 */
export class PaymentWidget extends LitElement {
  static override styles = styles;

  // A static table rather than decorators: it needs no compiler support (the
  // sources are built by Vite, esbuild and tsx alike), and mount() reads it to
  // know which options are the element's properties: each one a page may set, so an
  // internal state has no entry here (the element keeps its own in controllers).
  static override properties: PropertyDeclarations = {
    checkoutId: { attribute: 'checkout-id' },
    // React and Vue hand over a new but equal object on every render: only a
    // different order is a reason to create another checkout. Lit wraps the element's own
    // accessor (below, readOrder), which the attribute's text goes through too.
    order: { hasChanged: differs },
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

  /** Id of a checkout the merchant's backend created; required unless `order` is given. On a return page it shows that checkout's confirmed outcome. */
  declare checkoutId: string | undefined;
  /** Base URL of the merchant's companion handler. */
  declare endpoint: string;
  /** BCP 47 tag; unset: the page's `lang`, then `navigator.language`, then `en-GB`. */
  declare locale: string | undefined;
  /** Space-separated subset of `card ideal bancontact blik boleto` to offer; unset: what the backend's payment-methods route returns. */
  declare paymentMethods: string | undefined;
  /** Hides the built-in button; the page calls `submit()`. Enter in a field submits the page's form around it. */
  declare noSubmitButton: boolean;
  /** Shows the ZIP code field (US merchants). */
  declare showZipCode: boolean;
  /** Shows the email field. */
  declare showEmail: boolean;
  /** Shows the installments field (Brazilian merchants). */
  declare showInstallments: boolean;
  /** The most installments offered, 1-12. */
  declare maxInstallments: number;
  /** Offers this customer's saved cards and pays with their token. */
  declare customerId: string | undefined;
  /** Offers to save the card for later payments (a checkout made to save it saves it, and says so). */
  declare saveCard: boolean;
  // The @type spells ChallengeMode out: the custom elements manifest does not
  // follow type aliases, and editors offer the attribute's values from it.
  /**
   * How a 3DS challenge shows: `auto` (in an iframe when the checkout has no
   * redirect_url, as a full-page redirect when it has one), `iframe` or `redirect`.
   * @type {'auto' | 'iframe' | 'redirect'}
   */
  declare challenge: ChallengeMode;
  /** The button reads "Donate" instead of "Pay". */
  declare donate: boolean;
  /**
   * The merchant's own wording, over the locale's: `{ pay: 'Order for {amount}' }`.
   * Keys are those of `src/widget/locales/en.ts`; unknown keys are ignored.
   */
  declare translations: Partial<Strings> | undefined;

  private _order: unknown;

  /**
   * Handed to the backend's create route when the widget creates the checkout itself. The
   * attribute and the property are read alike: text that parses as JSON is the value it
   * spells (`'{"sku":"mug"}'` is `{ sku: 'mug' }`), other text stays text.
   */
  get order(): unknown {
    return this._order;
  }

  set order(value: unknown) {
    this._order = readOrder(value);
  }

  /**
   * @internal How the page leaves for a bank or full-page 3DS; left unset, a
   * real top-level navigation. Tests set it so the test page stays put.
   */
  navigate: NextStepContext['navigate'];

  // Behaviour, each controller with the state it owns: the words, the form, the checkout's
  // lifecycle. Each asks for a render when its state changes.
  private readonly _locale = new LocaleController(this, (error) => this._parts.failed(error));
  private readonly _parts = new PartsController(this, (words) => this._locale.addEnglish(words));
  private readonly _form: FormController = new FormController(this, {
    loading: () => this._checkout.lifecycle.kind === 'loading',
    strings: () => this._locale.strings,
    parts: this._parts,
  });
  private readonly _checkout = new CheckoutController(this, {
    form: this._form,
    locale: this._locale,
    parts: this._parts,
  });

  // `undefined` (React's, for a prop the page leaves out), null or '' for any of these is
  // its default wherever it is read (the endpoint, the installments, the challenge mode).
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
    // A step is on screen only once the pay part (which ran it) is in.
    this._parts.get('pay')?.leaveStep(this._checkout);
    this._form.reset();
  }

  /**
   * Focuses the first thing on screen to fill in or press: a field, the chosen method, or the
   * button that is left ("Try again", "Try another card").
   */
  override focus(options?: FocusOptions): void {
    const target = [
      ...this.renderRoot.querySelectorAll<HTMLElement>('[data-field],:checked,button'),
    ].find((el) => el.getClientRects().length > 0);
    if (target) target.focus(options);
    else super.focus(options);
  }

  /**
   * Whether focus was inside the widget when a render began: a render that hides or
   * disables the focused control hands focus on to what is on screen (the pay part's
   * handOnFocus(): only paying and its outcome hide a control that has focus).
   */
  private _keepFocus = false;

  protected override updated(): void {
    if (!this._keepFocus) return;
    this._keepFocus =
      this._parts.get('pay')?.handOnFocus(this, this._checkout.lifecycle.kind) ?? false;
  }

  // Before the render, not after: what a load sets (the loading phase) then
  // shows in this update instead of scheduling another. (The locale controller
  // follows `locale` and `translations` by itself.)
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.shadowRoot?.activeElement) this._keepFocus = true;

    // After a confirmed outcome only another checkout-id loads: a new order then
    // would open a second checkout for a payment already made. Nor while a payment is out:
    // its answer is the shopper's outcome, and the pay part loads the order as it is now
    // if that answer leaves the form (../checkout/pay.ts).
    const { kind } = this._checkout.lifecycle;
    if (
      changed.has('checkoutId') ||
      (kind !== 'done' && kind !== 'busy' && (changed.has('order') || changed.has('endpoint')))
    ) {
      void this._checkout.load();
    }
  }

  protected override render(): TemplateResult {
    const s = this._locale.strings;
    // A file of the widget cannot run (not the one built, or the page's bundler cannot load
    // it): the widget says so only.
    if (this._parts.stopped) return statusRegion(s.errNotLoaded);
    const now = this._checkout.lifecycle;
    const { kind } = now;
    const loading = kind === 'loading';
    // While loading, the form the checkout will most likely show stands in for
    // it: the same template, so the same size, and the page does not move when
    // the real one replaces it. Inert, hidden from assistive technology (the
    // loading line speaks for it) and drawn as a placeholder (styles.ts).
    const offer = loading
      ? { methods: expectedMethods(this.paymentMethods), savedCards: [] }
      : payable(now);
    // Pay is aria-disabled, never disabled, while paying: every engine drops focus from a
    // disabled control at its next frame, so Pay pressed on a slow answer left focus on the
    // page, unheard, until the outcome. A press while paying pays nothing (submit()).
    return html`
      ${loading ? html`<p class="loading" part="loading">${s.loading}</p>` : nothing}
      <form
        part="form"
        novalidate
        ?hidden=${!offer || kind === 'step'}
        ?inert=${loading}
        aria-hidden=${loading ? 'true' : nothing}
        aria-busy=${kind === 'busy'}
        @submit=${this._onSubmit}
        @beforeinput=${this._form.onBeforeInput}
        @input=${this._form.onInput}
        @compositionend=${this._form.onInput}
        @change=${this._form.onInput}
        @focusout=${this._form.onFocusOut}
      >
        ${offer ? this._renderFields(offer) : nothing}
        <button type="submit" part="button" ?hidden=${this.noSubmitButton} aria-disabled=${kind !== 'form'}>
          ${kind === 'busy' ? s.processing : this._buttonText()}
        </button>
      </form>
      <div class="next-step" part="next-step"></div>
      ${statusRegion(this._parts.missing ? s.errNetwork : this._form.view.status)}
      ${kind === 'broken' && now.retryable ? retryButton(s.retry, () => this._checkout.load()) : nothing}
      ${
        // One "Try again": a widget with nothing to pay loads again, parts and all.
        this._parts.missing && kind !== 'broken'
          ? retryButton(s.retry, () => this._parts.retry())
          : nothing
      }
      ${this._renderOutcome()}
    `;
  }

  /**
   * The live region that announces the outcome (on the page from the start, so that what
   * appears in it is read out), and the outcome in it once its part has loaded: confirmed,
   * and why a failure failed, with the button that pays the basket after all; or pending.
   * The part draws them only where the payment stands at an outcome (nothing before then).
   */
  private _renderOutcome(): TemplateResult {
    const outcome = this._parts.get('pay');
    return html`<div part="outcome-region" role="status">
        ${outcome?.outcomeView(this._checkout)}
      </div>
      ${outcome?.offerView(this._checkout)}`;
  }

  private _renderFields({ methods, savedCards }: Omit<Payable, 'checkout'>): TemplateResult {
    const s = this._locale.strings;
    const form = this._form;
    const { method, savedToken } = form.view;
    const card = method === 'card';
    return html`<div class="fields">
      ${methodChoice(methods, method, s, form.chooseMethod)}
      ${card ? this._parts.get('pay')?.savedCardChoice(savedCards, savedToken, s, form) : nothing}
      ${fieldRows(form.fields(), form)}
      ${
        // Under a new card: a checkout made to save it says so (the pay part's); else the box.
        card && savedToken === ''
          ? (this._parts.get('pay')?.cardSaved(this._checkout) ??
            (this.saveCard ? saveCardOption(s) : nothing))
          : nothing
      }
    </div>`;
  }

  // Enter in a field. Without the button, the page pays with submit(): a page form around the
  // widget (its address fields) is submitted as Enter submits any form, its own checks first
  // (requestSubmit: Safari 16; in 15, Enter there does nothing).
  private _onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.noSubmitButton) this.closest('form')?.requestSubmit?.();
    else void this.submit();
  }

  private _buttonText(): string {
    const now = this._checkout.lifecycle;
    const checkout = 'checkout' in now ? now.checkout : undefined;
    const amount = formatMoney(this._locale.tag, checkout?.amount, checkout?.currency);
    const s = this._locale.strings;
    return format(this.donate ? s.donate : s.pay, { amount }).trim();
  }
}
