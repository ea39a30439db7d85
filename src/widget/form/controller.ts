import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  backspaceOverSeparator,
  type CardNetwork,
  isTypedField,
  retype,
} from '../../card/index.ts';
import type { PaymentMethodId } from '../../domain/checkout.ts';
import type { SavedCard } from '../checkout/backend.ts';
import { emit } from '../events.ts';
import type { StringName, Strings } from '../locales/en.ts';
import {
  type Errors,
  emptyForm,
  errorShown,
  type FieldName,
  type FormState,
  fieldsFor,
  mark,
  networkOf,
  type Shown,
  type Values,
  validate,
} from './fields.ts';

/** What the form controller reads from its element. */
interface FormHost extends ReactiveControllerHost, HTMLElement, Shown {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** What the form shows besides what is typed; plain JSON data (see _set). */
interface FormView {
  method: PaymentMethodId;
  /** The chosen saved card's token; '' means "use a new card". */
  savedToken: string;
  /** Which fields the shopper has touched and changed, and whether they submitted. */
  formState: FormState;
  errors: Errors;
  network: CardNetwork | undefined;
  status: string;
}

/** What the form controller asks of the element's other controllers. */
export interface FormContext {
  /** Whether the checkout is loading (the form on screen is its placeholder). */
  loading(): boolean;
  /** The words on screen. */
  strings(): Strings;
}

type Control = HTMLInputElement | HTMLSelectElement;

/**
 * The form's behaviour: typing, choosing a method or a saved card, validating,
 * when an error shows, and the room it keeps while the checkout loads. It owns what it
 * decides (the chosen method and card, touched fields, errors, the network, the live
 * region's text) and asks the element for a render when any of it changes. Values are
 * read from the inputs at the moment they are needed, so the card number and security
 * code are never kept.
 */
export class FormController implements ReactiveController {
  /** What the form shows: changed only through _set, which asks for a render. */
  private _view: FormView = {
    method: 'card',
    savedToken: '',
    formState: emptyForm(),
    errors: {},
    network: undefined,
    status: '',
  };
  /** The customer's saved cards offered with this checkout. */
  private _savedCards: SavedCard[] = [];
  /** The host is rendering: a field losing focus now is being removed by that render. */
  private _rendering = false;
  /** Whether the form on screen is the placeholder shown while the checkout loads. */
  private _placeholder: boolean | undefined;
  /** What keep() saved of the form for the next checkout: no card data, ever. */
  private _kept: Values = {};

  /**
   * The host's own ARIA: never an attribute on the host, whose attributes are the page's (a
   * server render's, which hydration compares with its own). A group, the payment's
   * controls (an element with no role of its own is left out of Chromium's accessibility
   * tree, and what it says with it). Safari before 16.4 has no ElementInternals and Firefox
   * before 119 none of its ARIA: there the host says nothing of itself, and the loading
   * line inside says it all the same (the placeholder form is hidden from assistive
   * technology).
   */
  private readonly _internals: ElementInternals | undefined;

  private readonly _host: FormHost;
  private readonly _context: FormContext;

  constructor(host: FormHost, context: FormContext) {
    this._host = host;
    this._context = context;
    host.addController(this);
    // Feature-tested with `in`: Safari before 16.4 has no attachInternals, Firefox before
    // 119 no ARIA on what it returns (there a host's internals would hold nothing).
    const internals = 'attachInternals' in host ? host.attachInternals() : undefined;
    if (internals && 'role' in internals && 'ariaBusy' in internals) {
      internals.role = 'group';
      this._internals = internals;
    }
  }

  /** The chosen payment method (the checkout's load picks the first offered). */
  get method(): PaymentMethodId {
    return this._view.method;
  }

  /** The chosen saved card's token; '' means "use a new card". */
  get savedToken(): string {
    return this._view.savedToken;
  }

  /** The card's network as typed so far. */
  get network(): CardNetwork | undefined {
    return this._view.network;
  }

  /** What is wrong with each field on screen. */
  get errors(): Errors {
    return this._view.errors;
  }

  /** The live region's text: why a submit or a load did not go through. */
  get status(): string {
    return this._view.status;
  }

  hostUpdate(): void {
    this._rendering = true;
    const host = this._host;
    const loading = this._context.loading();
    if (loading === this._placeholder) return;
    this._placeholder = loading;
    // The placeholder is hidden from assistive technology: the host says it is busy.
    if (this._internals) this._internals.ariaBusy = loading ? 'true' : null;
    // Loading never shrinks the widget: the form it ends in keeps at least the
    // placeholder's height (a saved card needs less room than the card fields
    // expected), so nothing under the widget moves up, until the shopper
    // chooses something else (_choose). A new load measures afresh.
    const form = host.renderRoot.querySelector('form');
    if (form) form.style.minHeight = loading ? '' : `${form.getBoundingClientRect().height}px`;
  }

  hostUpdated(): void {
    this._rendering = false;
  }

  /** Chooses the first of the methods offered, and the first saved card. */
  offer(methods: PaymentMethodId[], savedCards: SavedCard[]): void {
    this._savedCards = savedCards;
    this._set({ method: methods[0] ?? 'card', savedToken: savedCards[0]?.token ?? '' });
  }

  /** The fields on screen, in focus order. */
  fields(): FieldName[] {
    const card = this._view.method === 'card';
    return fieldsFor(this._view.method, card && this._view.savedToken !== '', this._host);
  }

  control(field: FieldName): Control | null {
    return this._host.renderRoot.querySelector(`#${field}`);
  }

  /** The values of the visible fields, read from the inputs at this moment. */
  values(): Values {
    const values: Values = {};
    for (const field of this.fields()) values[field] = this.control(field)?.value ?? '';
    return values;
  }

  /** The chosen saved card, when paying with one. */
  savedCard(): SavedCard | undefined {
    if (this._view.method !== 'card') return undefined;
    return this._savedCards.find((c) => c.token === this._view.savedToken);
  }

  /** The shopper ticked "save this card". */
  saveCardTicked(): boolean {
    return Boolean(this._host.renderRoot.querySelector<HTMLInputElement>('#save')?.checked);
  }

  setStatus(text: string): void {
    this._set({ status: text });
  }

  /**
   * Checks every field as a submit does, so every error shows; the invalid
   * fields in focus order.
   */
  check(): FieldName[] {
    const fields = this.fields();
    const errors = validate(fields, this.values());
    this._set({ errors, formState: { ...this._view.formState, submitted: true } });
    return fields.filter((f) => errors[f]);
  }

  /** What the shopper reads under a field; '' while it has no error. */
  message(field: FieldName): string {
    const code = this._view.errors[field];
    if (!code) return '';
    // Only fields with a rule of their own are ever invalid, and each has its
    // message under err{Field}: errNumber, errTaxId...
    return this._context.strings()[
      code === 'required'
        ? 'errRequired'
        : (`err${field[0]?.toUpperCase()}${field.slice(1)}` as StringName)
    ];
  }

  /** Whether a field's error is on screen. */
  errorShown(field: FieldName): boolean {
    return errorShown(this._view.formState, field) && this._view.errors[field] !== undefined;
  }

  /** Empties every field and hides every error; the choice of method stays. */
  reset(): void {
    const host = this._host;
    for (const input of host.renderRoot.querySelectorAll<Control>('input, select')) {
      if (input instanceof HTMLSelectElement) input.selectedIndex = 0;
      else if (input.type === 'checkbox') input.checked = false;
      // A radio's value names its choice: only what was typed is emptied.
      else if (input.type !== 'radio') input.value = '';
    }
    this._clear();
    this._set({ savedToken: this._savedCards[0]?.token ?? '' });
  }

  /**
   * After a confirmed outcome: wipes the card number and security code. After a failure, keeps
   * what else the shopper typed (name, email, address) for another card on the basket's next
   * checkout; after a payment, nothing.
   */
  keep(forAnotherCard: boolean): void {
    const { number: _number, expiry: _expiry, cvv: _cvv, ...kept } = this.values();
    this._kept = forAnotherCard ? kept : {};
    for (const field of ['number', 'cvv'] as const) {
      const input = this.control(field);
      if (input) input.value = '';
    }
  }

  /**
   * Puts back what keep() kept, into the fields now on screen, as a fresh form: nothing
   * touched or submitted yet, so no error shows before the shopper has typed.
   */
  restore(): void {
    this._clear();
    for (const [field, value] of Object.entries(this._kept)) {
      const input = this.control(field as FieldName);
      if (input) input.value = value;
    }
    this._kept = {};
  }

  // Event handlers, as arrow functions: Lit calls listeners with the element as `this`.

  readonly onInput = (event: Event): void => {
    const host = this._host;
    const input = event.target as Control;
    const field = input.dataset.field as FieldName | undefined;
    if (!field) return;
    if (input instanceof HTMLInputElement && isTypedField(field)) {
      const caret = input.selectionStart ?? input.value.length;
      const next = retype(field, input.value, caret, this._view.network);
      if (next.value !== input.value) {
        input.value = next.value;
        // Setting the value leaves the caret at its end (HTML's value setter), where typing
        // at the end wants it: placing it again would only force a layout. Only the focused
        // input has a caret; moving it elsewhere can steal focus in Safari.
        if (next.caret !== next.value.length && host.shadowRoot?.activeElement === input) {
          input.setSelectionRange(next.caret, next.caret);
        }
      }
    }
    this._set({ formState: mark(this._view.formState, field, { dirty: input.value !== '' }) });
    this._refresh();
    this.emitChange();
  };

  readonly onBeforeInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    if (event.inputType !== 'deleteContentBackward') return;
    if (input.id !== 'number' && input.id !== 'expiry') return;
    const at = input.selectionStart ?? 0;
    const next = backspaceOverSeparator(input.value, at, input.selectionEnd ?? at);
    if (!next) return;
    event.preventDefault();
    input.value = next.value;
    input.setSelectionRange(next.caret, next.caret);
    input.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: event.inputType }),
    );
  };

  readonly onFocusOut = (event: FocusEvent): void => {
    const field = (event.target as HTMLElement).dataset?.field as FieldName | undefined;
    // A field that a render removes while it has focus (another method chosen,
    // the outcome shown) loses it on the way out: the shopper did not leave it,
    // and another render requested from inside this one would be wasted.
    if (!field || this._rendering) return;
    this._set({ formState: mark(this._view.formState, field, { touched: true }) });
  };

  readonly chooseMethod = (method: PaymentMethodId): void => {
    this._set({ method });
    this._choose();
    void this._host.updateComplete.then(() => {
      this._refresh();
      this.emitChange();
    });
  };

  readonly chooseSaved = (token: string): void => {
    this._set({ savedToken: token });
    this._choose();
    void this._host.updateComplete.then(() => this._refresh());
  };

  emitChange(): void {
    emit(this._host, 'payment-change', {
      valid: Object.keys(this._view.errors).length === 0,
      complete: this.fields().every((f) => (this.control(f)?.value ?? '') !== ''),
      network: this._view.network,
      paymentMethod: this._view.method,
    });
  }

  /**
   * Another choice shows other fields: none of them has been submitted yet, and
   * the form takes the size they need (the space kept since loading is let go).
   */
  private _choose(): void {
    const host = this._host;
    this._set({ formState: { ...this._view.formState, submitted: false }, status: '' });
    const form = host.renderRoot.querySelector('form');
    if (form) form.style.minHeight = '';
  }

  /** Nothing touched, nothing wrong, nothing to say. */
  private _clear(): void {
    this._set({ formState: emptyForm(), errors: {}, network: undefined, status: '' });
  }

  /** Re-derives errors and the network from the inputs. */
  private _refresh(): void {
    const values = this.values();
    this._set({
      errors: validate(this.fields(), values),
      network: this._view.method === 'card' ? networkOf(values.number) : undefined,
    });
  }

  /**
   * Changes what the form shows, and asks for a render only when something differs. All of
   * it is plain data compared by value: a keystroke makes a new but often equal form state
   * and errors, and an equal one must not render the whole form again.
   */
  private _set(next: Partial<FormView>): void {
    const view = { ...this._view, ...next };
    if (JSON.stringify(view) === JSON.stringify(this._view)) return;
    this._view = view;
    this._host.requestUpdate();
  }
}
