import {
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import {
  type CardNetwork,
  digitsOnly,
  formatExpiry,
  formatNumber,
  networkRules,
} from '../card/index.ts';
import { actionFor, nextStepStyles, runAction } from '../next-step/index.ts';
import type {
  Action,
  ChallengeMode,
  CheckoutView,
  NextStepContext,
  PaymentMethodId,
  StringKey,
} from '../next-step/types.ts';
import {
  BackendError,
  createCheckout,
  getCheckout,
  isMethodId,
  METHOD_IDS,
  paymentMethods,
  processCheckout,
  type SavedCard,
  savedCards,
} from './backend.ts';
import { buildProcessBody } from './body.ts';
import { emit, type FieldError } from './events.ts';
import {
  type Errors,
  emptyForm,
  errorShown,
  type FieldName,
  type FormState,
  fieldsFor,
  mark,
  networkOf,
  type Values,
  validate,
} from './form.ts';
import { networkIcon } from './icons.ts';
import { en, type StringName, type Strings } from './locales/en.ts';
import { format, loadStrings, resolveLocale, withOverrides } from './locales/load.ts';
import { styles } from './styles.ts';

type Phase = 'loading' | 'broken' | 'form' | 'busy' | 'step' | 'pending' | 'done';

/** Fields whose label key is not the field's own name. */
const LABELS: Partial<Record<FieldName, StringName>> = {
  number: 'cardNumber',
  name: 'cardName',
  line1: 'addressLine',
};

/** Browser autofill tokens; a field missing here gets `off`. */
const AUTOCOMPLETE: Partial<Record<FieldName, string>> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  cvv: 'cc-csc',
  name: 'cc-name',
  zip: 'postal-code',
  email: 'email',
  firstName: 'given-name',
  lastName: 'family-name',
  line1: 'address-line1',
  city: 'address-level2',
  state: 'address-level1',
  postalCode: 'postal-code',
};

/** Fields typed as digits: a numeric keypad on phones. */
const NUMERIC = /^(number|expiry|cvv|zip|taxId|postalCode)$/;

/** Fields laid out two to a row when the widget is wide enough. */
const PAIRS: Partial<Record<FieldName, FieldName>> = {
  expiry: 'cvv',
  firstName: 'lastName',
  city: 'state',
};

const STATE = { state: true } as const;

/** What the shopper reads for a payment-error code; anything else is errBackend. */
const MESSAGES: Record<string, StringName> = {
  network_error: 'errNetwork',
  missing_checkout: 'errNoCheckout',
  no_payment_methods: 'errNoMethods',
};

const FINAL = new Set(['PAID', 'FAILED', 'EXPIRED']);

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

function formatAmount(locale: string, amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number') return '';
  const options: Intl.NumberFormatOptions =
    typeof currency === 'string' && currency ? { style: 'currency', currency } : {};
  try {
    return new Intl.NumberFormat(locale, options).format(amount);
  } catch {
    // A malformed locale or currency must not break the form.
    return new Intl.NumberFormat('en-GB', options).format(amount);
  }
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
    _phase: STATE,
    _methods: STATE,
    _method: STATE,
    _savedCards: STATE,
    _savedToken: STATE,
    _strings: STATE,
    _form: STATE,
    _errors: STATE,
    _network: STATE,
    _status: STATE,
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

  declare private _phase: Phase;
  declare private _methods: PaymentMethodId[];
  declare private _method: PaymentMethodId;
  declare private _savedCards: SavedCard[];
  /** The chosen saved card; '' means "use a new card". */
  declare private _savedToken: string;
  declare private _strings: Strings;
  declare private _form: FormState;
  declare private _errors: Errors;
  declare private _network: CardNetwork | undefined;
  /** Text of the live region: why a submit did not go through. */
  declare private _status: string;

  /**
   * @internal How the page leaves for a bank or full-page 3DS; left unset, a
   * real top-level navigation. Tests set it so the test page stays put.
   */
  navigate: NextStepContext['navigate'];

  private _checkout: CheckoutView | undefined;
  private _outcome: 'success' | 'failure' | 'pending' | undefined;
  private _retryable = true;
  private _loadAbort: AbortController | undefined;
  private _stepAbort: AbortController | undefined;
  private _inFlight: Promise<void> | undefined;
  private _stringsRequest: Promise<Strings> | undefined;

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
    this._phase = 'loading';
    this._methods = [];
    this._method = 'card';
    this._savedCards = [];
    this._savedToken = '';
    this._strings = en;
    this._form = emptyForm();
    this._errors = {};
    this._status = '';
  }

  // ---- public API -------------------------------------------------------

  /** Validates, then pays. Calling it again while a payment is in flight returns the same promise. */
  submit(): Promise<void> {
    if (this._inFlight) return this._inFlight;
    const run = this._pay();
    // pay() runs synchronously up to sending; only a payment that got that far
    // is in flight (a refused submit may be retried at once).
    if (this._phase !== 'busy') return run;
    this._inFlight = run.finally(() => {
      this._inFlight = undefined;
    });
    return this._inFlight;
  }

  /** Empties every field and hides every error; leaves a confirmed outcome on screen. */
  reset(): void {
    if (this._phase === 'step') {
      this._stepAbort?.abort();
      this._phase = 'form';
    }
    for (const input of this._inputs()) {
      if (input instanceof HTMLSelectElement) input.selectedIndex = 0;
      else if (input.type === 'checkbox') input.checked = false;
      else input.value = '';
    }
    this._form = emptyForm();
    this._errors = {};
    this._network = undefined;
    this._status = '';
    this._savedToken = this._savedCards[0]?.token ?? '';
  }

  /** Focuses the first thing to fill in (or the retry button when loading failed). */
  override focus(options?: FocusOptions): void {
    const target = this.renderRoot.querySelector<HTMLElement>('[data-field],:checked,button');
    (target ?? this).focus(options);
  }

  // ---- lifecycle --------------------------------------------------------

  override connectedCallback(): void {
    super.connectedCallback();
    // Re-attached after a move in the DOM: disconnecting aborted the load or the
    // challenge, so start the load again, or show the form (still payable).
    if (this.hasUpdated && this._phase === 'loading') void this._load();
    if (this._phase === 'step') this._phase = 'form';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._loadAbort?.abort();
    this._stepAbort?.abort();
  }

  // Before the render, not after: what a load sets (the loading phase) then
  // shows in this update instead of scheduling another.
  protected override willUpdate(changed: PropertyValues<this>): void {
    // After a confirmed outcome only another checkout-id loads: a new order then
    // would open a second checkout for a payment already made.
    const settled = this._phase === 'done';
    if (
      changed.has('checkoutId') ||
      (!settled && (changed.has('order') || changed.has('endpoint')))
    ) {
      void this._load();
    } else if (changed.has('locale') || changed.has('translations')) {
      void this._loadStrings();
    }
  }

  /**
   * Shows the strings of the current locale once loaded. Only the latest request
   * may: a locale file that arrives late must not replace a newer choice.
   */
  private _loadStrings(): Promise<void> {
    const request = loadStrings(this._resolvedLocale()).then((s) =>
      withOverrides(s, this.translations),
    );
    this._stringsRequest = request;
    return request.then((s) => {
      if (this._stringsRequest === request) {
        this._strings = s;
        // Screen readers pick their voice from `lang`: the widget's text is in
        // the locale it resolved, which may differ from the page's language.
        if (this.locale) this.lang = resolveLocale(this.locale);
      }
    });
  }

  private _resolvedLocale(): string {
    return this.locale || document.documentElement.lang || navigator.language || 'en-GB';
  }

  private get _endpoint(): string {
    return this.endpoint || '/payments';
  }

  private async _load(): Promise<void> {
    this._loadAbort?.abort();
    const controller = new AbortController();
    this._loadAbort = controller;
    const { signal } = controller;
    this._phase = 'loading';
    this._status = '';
    this._outcome = undefined;
    const strings = this._loadStrings();
    try {
      const endpoint = this._endpoint;
      let checkout: CheckoutView;
      if (this.checkoutId) checkout = await getCheckout(endpoint, this.checkoutId, signal);
      else if (this.order !== undefined && this.order !== null && this.order !== '')
        checkout = await createCheckout(endpoint, this.order, signal);
      else throw new BackendError('missing_checkout', en.errNoCheckout, 400);
      await strings;
      if (signal.aborted) return;
      this._checkout = checkout;

      // Resume: back from a bank or 3DS page the checkout is already settled.
      if (FINAL.has(String(checkout.status))) {
        this._settle(checkout);
        return;
      }

      const [offered, saved] = await Promise.all([
        paymentMethods(endpoint, checkout, signal),
        // Saved cards are a convenience: without them the user types a card.
        this.customerId
          ? savedCards(endpoint, this.customerId, signal).catch(() => [])
          : Promise.resolve([]),
      ]);
      if (signal.aborted) return;
      const wanted = (this.paymentMethods ?? '').split(/\s+/).filter(isMethodId);
      const methods = METHOD_IDS.filter(
        (m) => offered.includes(m) && (wanted.length === 0 || wanted.includes(m)),
      );
      if (methods.length === 0) throw new BackendError('no_payment_methods', en.errNoMethods, 422);
      this._methods = methods;
      this._method = methods[0] ?? 'card';
      this._savedCards = methods.includes('card') ? saved : [];
      this._savedToken = this._savedCards[0]?.token ?? '';
      this._phase = 'form';
      await this.updateComplete;
      emit(this, 'payment-ready', { paymentMethods: methods });
    } catch (error) {
      if (signal.aborted) return;
      await strings;
      this._phase = 'broken';
      this._report(error);
    }
  }

  // ---- fields -----------------------------------------------------------

  private _fields(): FieldName[] {
    return fieldsFor(this._method, this._method === 'card' && this._savedToken !== '', this);
  }

  private _inputs(): (HTMLInputElement | HTMLSelectElement)[] {
    return [
      ...this.renderRoot.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select'),
    ];
  }

  private _control(field: FieldName): HTMLInputElement | HTMLSelectElement | null {
    return this.renderRoot.querySelector(`#${field}`);
  }

  /** The values of the visible fields, read from the inputs at this moment. */
  private _values(): Values {
    const values: Values = {};
    for (const field of this._fields()) values[field] = this._control(field)?.value ?? '';
    return values;
  }

  private _onInput(event: Event): void {
    const input = event.target as HTMLInputElement | HTMLSelectElement;
    const field = input.dataset.field as FieldName | undefined;
    if (!field) return;
    if (input instanceof HTMLInputElement) this._reformat(field, input);
    this._form = mark(this._form, field, { dirty: input.value !== '' });
    this._refresh();
    this._emitChange();
  }

  private _emitChange(): void {
    emit(this, 'payment-change', {
      valid: Object.keys(this._errors).length === 0,
      complete: this._fields().every((f) => (this._control(f)?.value ?? '') !== ''),
      network: this._network,
      paymentMethod: this._method,
    });
  }

  /** Formats as the user types, keeping the caret where it was relative to the digits. */
  private _reformat(field: FieldName, input: HTMLInputElement): void {
    const caret = input.selectionStart ?? input.value.length;
    let next: { value: string; caret: number } | undefined;
    if (field === 'number') next = formatNumber(input.value, caret);
    else if (field === 'expiry') next = formatExpiry(input.value, caret);
    else if (field === 'cvv') {
      const value = digitsOnly(input.value).slice(0, this._cvvLength());
      next = { value, caret: Math.min(caret, value.length) };
    }
    if (!next || next.value === input.value) return;
    input.value = next.value;
    // Only the focused input has a caret; moving it elsewhere can steal focus in Safari.
    if (this.shadowRoot?.activeElement === input) input.setSelectionRange(next.caret, next.caret);
  }

  /**
   * Backspace right after a separator that formatting puts back ("4242 |4242",
   * "12 / |3") would do nothing at all; delete the digit before it instead.
   */
  private _onBeforeInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    const at = input.selectionStart ?? 0;
    if (
      event.inputType !== 'deleteContentBackward' ||
      (input.id !== 'number' && input.id !== 'expiry') ||
      at !== input.selectionEnd ||
      /\d/.test(input.value[at - 1] ?? '0')
    ) {
      return;
    }
    const digitEnd = input.value.slice(0, at).replace(/\D+$/, '').length;
    if (digitEnd === 0) return;
    event.preventDefault();
    input.value = input.value.slice(0, digitEnd - 1) + input.value.slice(at);
    input.setSelectionRange(digitEnd - 1, digitEnd - 1);
    input.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: event.inputType }),
    );
  }

  private _cvvLength(): number {
    // Until the network is known, allow the longest code (AMEX's four digits).
    return this._network ? networkRules(this._network).cvvLength : 4;
  }

  private _onBlur(event: FocusEvent): void {
    const field = (event.target as HTMLElement).dataset?.field as FieldName | undefined;
    if (!field || this._form.fields[field]?.touched) return;
    this._form = mark(this._form, field, { touched: true });
  }

  /** Re-derives errors and the network from the inputs. */
  private _refresh(): void {
    const values = this._values();
    this._errors = validate(this._fields(), values);
    this._network = this._method === 'card' ? networkOf(values.number) : undefined;
  }

  private _chooseMethod(method: PaymentMethodId): void {
    this._method = method;
    this._form = { ...this._form, submitted: false };
    this._status = '';
    void this.updateComplete.then(() => {
      this._refresh();
      this._emitChange();
    });
  }

  private _chooseSaved(token: string): void {
    this._savedToken = token;
    this._form = { ...this._form, submitted: false };
    this._status = '';
    void this.updateComplete.then(() => this._refresh());
  }

  // ---- paying -----------------------------------------------------------

  private async _pay(): Promise<void> {
    const checkout = this._checkout;
    if (this._phase !== 'form' || !checkout?.id) return;
    const s = this._strings;
    const fields = this._fields();
    const values = this._values();
    this._errors = validate(fields, values);
    this._form = { ...this._form, submitted: true };
    const invalid = fields.filter((f) => this._errors[f]);
    if (invalid.length > 0) {
      this._status = s.fixFields;
      const errors: FieldError[] = invalid.map((field) => ({
        field,
        code: this._errors[field] ?? 'invalid',
        message: this._message(field),
      }));
      emit(this, 'payment-invalid', { errors });
      await this.updateComplete;
      this._control(invalid[0] as FieldName)?.focus();
      return;
    }

    const saved = this._savedCards.find((c) => c.token === this._savedToken);
    const useSaved = this._method === 'card' && saved !== undefined && this.customerId;
    const body = buildProcessBody(
      {
        method: this._method,
        values,
        saved: useSaved ? { token: saved.token, customerId: this.customerId ?? '' } : undefined,
        saveCard:
          this.saveCard &&
          Boolean(this.renderRoot.querySelector<HTMLInputElement>('#save')?.checked),
        userAgent: navigator.userAgent,
      },
      this,
    );
    this._status = '';
    this._phase = 'busy';
    const sent = processCheckout(this._endpoint, checkout.id, body);
    emit(this, 'payment-submit', {
      paymentMethod: this._method,
      ...(this._method === 'card'
        ? useSaved
          ? { last4: saved.last4, network: saved.network }
          : { last4: body.card?.last_4_digits, network: this._network }
        : {}),
    });

    try {
      const result = await sent;
      const action = actionFor(result.status, result.body, {
        mode: this.challenge,
        hasRedirectUrl: Boolean(checkout.redirect_url),
        paymentMethod: this._method,
      });
      if (action) return await this._runStep(action, checkout.id);
      if (result.status === 202) {
        throw new BackendError('invalid_next_step', en.errBackend, 202);
      }
      // A 200 is not the proof: the backend confirms by reading the checkout again.
      this._settle(await getCheckout(this._endpoint, checkout.id));
    } catch (error) {
      // 409: the checkout can no longer be processed (paid, expired or failed
      // meanwhile, perhaps in another tab). Its status is the answer, and a paid
      // checkout is never reported as anything else.
      if (error instanceof BackendError && error.status === 409) {
        const now = await getCheckout(this._endpoint, checkout.id).catch(() => undefined);
        if (now && FINAL.has(String(now.status))) return this._settle(now);
        // Still open, yet refused (past valid_until, say): trying again cannot
        // help, so the form goes and the shopper is sent back to the shop.
        if (now) {
          this._phase = 'broken';
          return this._report(error, false, 'checkoutClosed');
        }
      }
      this._phase = 'form';
      this._report(error);
    }
  }

  private async _runStep(action: Action, id: string): Promise<void> {
    this._stepAbort?.abort();
    const controller = new AbortController();
    this._stepAbort = controller;
    this._phase = 'step';
    await this.updateComplete;
    const container = this.renderRoot.querySelector<HTMLElement>('.next-step');
    if (!container) return;
    let outcome: Awaited<ReturnType<typeof runAction>>;
    try {
      outcome = await runAction(action, {
        container,
        confirm: () => getCheckout(this._endpoint, id),
        onChallenge: (detail) => emit(this, 'payment-challenge', detail),
        t: (key: StringKey) => this._strings[key],
        signal: controller.signal,
        ...(this.navigate ? { navigate: this.navigate } : {}),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      throw error;
    }
    if (controller.signal.aborted) return;
    if (outcome.kind === 'final' || outcome.kind === 'pending') this._settle(outcome.checkout);
    else if (outcome.kind === 'navigating') this._status = '';
    else {
      // Cancelled, or refused: the form again, still payable.
      controller.abort();
      this._phase = 'form';
      if (outcome.kind === 'refused') {
        this._report(new BackendError(outcome.code, outcome.message, 0), false);
      }
    }
  }

  /** Shows a confirmed checkout and tells the merchant; the card number and CVV are wiped. */
  private _settle(checkout: CheckoutView): void {
    this._checkout = checkout;
    this._status = '';
    const status = String(checkout.status);
    if (FINAL.has(status)) {
      this._stepAbort?.abort();
      for (const field of ['number', 'cvv'] as const) {
        const input = this._control(field);
        if (input) input.value = '';
      }
      this._outcome = status === 'PAID' ? 'success' : 'failure';
      this._phase = 'done';
      emit(this, status === 'PAID' ? 'payment-success' : 'payment-failure', { checkout });
    } else {
      this._outcome = 'pending';
      this._phase = 'pending';
      emit(this, 'payment-pending', { checkout });
    }
  }

  /** Puts an error in the live region (`key`'s text if given) and emits payment-error. */
  private _report(error: unknown, retryable?: boolean, key?: StringName): void {
    const s = this._strings;
    const e =
      error instanceof BackendError
        ? error
        : new BackendError('unexpected', error instanceof Error ? error.message : String(error), 0);
    this._retryable = retryable ?? e.retryable;
    // A code such as "constructor" finds an Object member, not a key: errBackend too.
    this._status = s[key ?? (MESSAGES[e.code] as StringName)] ?? s.errBackend;
    emit(this, 'payment-error', { code: e.code, message: e.message, retryable: this._retryable });
  }

  private _message(field: FieldName): string {
    const code = this._errors[field];
    if (!code) return '';
    // Only fields with a rule of their own are ever invalid, and each has its
    // message under err{Field}: errNumber, errTaxId...
    return this._strings[
      code === 'required'
        ? 'errRequired'
        : (`err${field[0]?.toUpperCase()}${field.slice(1)}` as StringName)
    ];
  }

  // ---- rendering --------------------------------------------------------

  protected override render(): TemplateResult {
    const s = this._strings;
    const showForm = this._phase === 'form' || this._phase === 'busy' || this._phase === 'step';
    return html`
      ${this._phase === 'loading' ? html`<p class="loading" part="loading">${s.loading}</p>` : nothing}
      <form
        part="form"
        novalidate
        ?hidden=${!showForm || this._phase === 'step'}
        aria-busy=${this._phase === 'busy' ? 'true' : 'false'}
        @submit=${this._onSubmit}
        @beforeinput=${this._onBeforeInput}
        @input=${this._onInput}
        @focusout=${this._onBlur}
      >
        ${showForm ? this._renderFields() : nothing}
        <button
          type="submit"
          part="button"
          ?hidden=${this.noSubmitButton}
          ?disabled=${this._phase !== 'form'}
        >
          ${this._phase === 'busy' ? s.processing : this._buttonText()}
        </button>
      </form>
      <div class="next-step" part="next-step"></div>
      <p class="status" part="status" role="status" aria-live="polite">${this._status}</p>
      ${
        this._phase === 'broken' && this._retryable
          ? html`<button type="button" part="button retry" @click=${() => this._load()}>${s.retry}</button>`
          : nothing
      }
      <div part="outcome-region" role="status">
        ${
          this._phase === 'done' || this._phase === 'pending'
            ? html`<p class="outcome ${this._outcome}" part="outcome">
              ${this._outcome === 'success' ? s.success : this._outcome === 'failure' ? s.failure : s.pending}
            </p>`
            : nothing
        }
      </div>
    `;
  }

  private _onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    void this.submit();
  }

  private _buttonText(): string {
    const amount = formatAmount(
      this._resolvedLocale(),
      this._checkout?.amount,
      this._checkout?.currency,
    );
    return format(this.donate ? this._strings.donate : this._strings.pay, { amount }).trim();
  }

  private _renderFields(): TemplateResult {
    const fields = this._fields();
    const rows: TemplateResult[] = [];
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldName;
      const pair = PAIRS[field];
      if (pair && fields[i + 1] === pair) {
        rows.push(
          html`<div class="row">${this._renderField(field)}${this._renderField(pair)}</div>`,
        );
        i++;
      } else rows.push(this._renderField(field));
    }
    return html`
      ${this._renderMethods()} ${this._renderSaved()} ${rows}
      ${
        this._method === 'card' && this.saveCard && this._savedToken === ''
          ? html`<label class="choice" part="save-card"
            ><input type="checkbox" id="save" />${this._strings.saveCard}</label
          >`
          : nothing
      }
    `;
  }

  private _renderMethods(): TemplateResult | typeof nothing {
    if (this._methods.length < 2) return nothing;
    return html`<fieldset part="methods">
      <legend>${this._strings.paymentMethod}</legend>
      <div class="choices">
        ${this._methods.map(
          (m) => html`<label class="choice" part="method"
            ><input
              type="radio"
              name="method"
              .value=${m}
              .checked=${this._method === m}
              @change=${() => this._chooseMethod(m)}
            />${this._strings[m]}</label
          >`,
        )}
      </div>
    </fieldset>`;
  }

  private _renderSaved(): TemplateResult | typeof nothing {
    if (this._method !== 'card' || this._savedCards.length === 0) return nothing;
    const s = this._strings;
    const option = (token: string, label: string) =>
      html`<label class="choice"
        ><input
          type="radio"
          name="saved"
          .value=${token}
          .checked=${this._savedToken === token}
          @change=${() => this._chooseSaved(token)}
        />${label}</label
      >`;
    return html`<fieldset part="saved-cards">
      <legend>${s.savedCards}</legend>
      ${this._savedCards.map((c) =>
        option(c.token, format(s.savedCard, { network: c.network, last4: c.last4 })),
      )}
      ${option('', s.newCard)}
    </fieldset>`;
  }

  private _renderField(field: FieldName): TemplateResult {
    const s = this._strings;
    const shown = errorShown(this._form, field) && this._errors[field] !== undefined;
    const errorId = `${field}-error`;
    const select = field === 'installments';
    const hintId = field === 'expiry' ? 'expiry-hint' : '';
    const describedBy = [hintId, shown ? errorId : ''].filter(Boolean).join(' ');
    const control = select
      ? html`<select
          id=${field}
          name=${field}
          data-field=${field}
          part="input"
          aria-invalid=${shown ? 'true' : nothing}
          aria-describedby=${describedBy || nothing}
        >
          ${Array.from(
            { length: Math.min(12, Math.max(1, this.maxInstallments || 12)) },
            (_, i) => html`<option value=${i + 1}>${i + 1}</option>`,
          )}
        </select>`
      : html`<input
          id=${field}
          name=${field}
          data-field=${field}
          part="input"
          type=${field === 'email' ? 'email' : 'text'}
          autocomplete=${AUTOCOMPLETE[field] ?? 'off'}
          inputmode=${NUMERIC.test(field) ? 'numeric' : field === 'email' ? 'email' : nothing}
          maxlength=${field === 'cvv' ? this._cvvLength() : field === 'zip' ? 10 : nothing}
          spellcheck="false"
          required
          aria-invalid=${shown ? 'true' : nothing}
          aria-describedby=${describedBy || nothing}
        />`;
    return html`<div class="field" part="field field-${field}">
      <label part="label" for=${field}>${s[LABELS[field] ?? (field as StringName)]}</label>
      <div class="control">
        ${control}
        ${
          field === 'number'
            ? html`<svg class="icon" part="icon" viewBox="0 0 24 16" aria-hidden="true">
              ${networkIcon(this._network)}
            </svg>`
            : nothing
        }
      </div>
      ${hintId ? html`<span class="hint" id=${hintId}>${s.expiryHint}</span>` : nothing}
      <p class="error" part="error" id=${errorId} ?hidden=${!shown}>
        ${shown ? this._message(field) : ''}
      </p>
    </div>`;
  }
}
