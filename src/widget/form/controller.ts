import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  backspaceOverSeparator,
  type CardNetwork,
  cvvLength,
  isTypedField,
  retype,
} from '../../card/index.ts';
import type { PaymentMethodId } from '../../next-step/types.ts';
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
export interface FormHost extends ReactiveControllerHost, HTMLElement, Shown {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

type Control = HTMLInputElement | HTMLSelectElement;

/**
 * The form's state: which method and saved card are chosen, which fields the
 * shopper has touched, what is wrong with each, the card's network and the
 * live region's text. Values are read from the inputs at the moment they are
 * needed, so the card number and security code never sit in element state.
 * It asks the host to update when its state changes, and the host's render
 * reads it.
 */
export class FormController implements ReactiveController {
  /** The methods offered, in screen order. */
  methods: PaymentMethodId[] = [];
  method: PaymentMethodId = 'card';
  savedCards: SavedCard[] = [];
  /** The chosen saved card; '' means "use a new card". */
  savedToken = '';
  state: FormState = emptyForm();
  errors: Errors = {};
  network: CardNetwork | undefined;
  /** Text of the live region: why a submit did not go through. */
  status = '';
  /** The host is rendering: a field losing focus now is being removed by that render. */
  private _rendering = false;

  constructor(
    private readonly _host: FormHost,
    private readonly _strings: () => Strings,
  ) {
    _host.addController(this);
  }

  hostUpdate(): void {
    this._rendering = true;
  }

  hostUpdated(): void {
    this._rendering = false;
  }

  /** Shows the methods a checkout may be paid with; the first, and the first saved card, chosen. */
  offer(methods: PaymentMethodId[], savedCards: SavedCard[]): void {
    this.methods = methods;
    this.method = methods[0] ?? 'card';
    this.savedCards = methods.includes('card') ? savedCards : [];
    this.savedToken = this.savedCards[0]?.token ?? '';
    this._host.requestUpdate();
  }

  /** The fields on screen, in focus order. */
  fields(): FieldName[] {
    const saved = this.method === 'card' && this.savedToken !== '';
    return fieldsFor(this.method, saved, this._host);
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
    if (this.method !== 'card') return undefined;
    return this.savedCards.find((c) => c.token === this.savedToken);
  }

  /** The shopper ticked "save this card". */
  saveCardTicked(): boolean {
    return Boolean(this._host.renderRoot.querySelector<HTMLInputElement>('#save')?.checked);
  }

  /** The security code's length for the number typed so far. */
  cvvLength(): number {
    return cvvLength(this.network);
  }

  setStatus(text: string): void {
    this.status = text;
    this._host.requestUpdate();
  }

  /**
   * Checks every field as a submit does, so every error shows; the invalid
   * fields in focus order.
   */
  check(): FieldName[] {
    const fields = this.fields();
    this.errors = validate(fields, this.values());
    this.state = { ...this.state, submitted: true };
    this._host.requestUpdate();
    return fields.filter((f) => this.errors[f]);
  }

  /** What the shopper reads under a field; '' while it has no error. */
  message(field: FieldName): string {
    const code = this.errors[field];
    if (!code) return '';
    // Only fields with a rule of their own are ever invalid, and each has its
    // message under err{Field}: errNumber, errTaxId...
    return this._strings()[
      code === 'required'
        ? 'errRequired'
        : (`err${field[0]?.toUpperCase()}${field.slice(1)}` as StringName)
    ];
  }

  /** Whether a field's error is on screen. */
  errorShown(field: FieldName): boolean {
    return errorShown(this.state, field) && this.errors[field] !== undefined;
  }

  /** Empties every field and hides every error; the choice of method stays. */
  reset(): void {
    for (const input of this._host.renderRoot.querySelectorAll<Control>('input, select')) {
      if (input instanceof HTMLSelectElement) input.selectedIndex = 0;
      else if (input.type === 'checkbox') input.checked = false;
      // A radio's value names its choice: only what was typed is emptied.
      else if (input.type !== 'radio') input.value = '';
    }
    this.state = emptyForm();
    this.errors = {};
    this.network = undefined;
    this.status = '';
    this.savedToken = this.savedCards[0]?.token ?? '';
    this._host.requestUpdate();
  }

  /** Wipes the card number and security code (after a confirmed outcome). */
  wipeCard(): void {
    for (const field of ['number', 'cvv'] as const) {
      const input = this.control(field);
      if (input) input.value = '';
    }
  }

  // Event handlers, as arrow functions: Lit calls listeners with the element as `this`.

  readonly onInput = (event: Event): void => {
    const input = event.target as Control;
    const field = input.dataset.field as FieldName | undefined;
    if (!field) return;
    if (input instanceof HTMLInputElement && isTypedField(field)) {
      const caret = input.selectionStart ?? input.value.length;
      const next = retype(field, input.value, caret, this.network);
      if (next.value !== input.value) {
        input.value = next.value;
        // Only the focused input has a caret; moving it elsewhere can steal focus in Safari.
        if (this._host.shadowRoot?.activeElement === input) {
          input.setSelectionRange(next.caret, next.caret);
        }
      }
    }
    this.state = mark(this.state, field, { dirty: input.value !== '' });
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
    if (!field || this._rendering || this.state.fields[field]?.touched) return;
    this.state = mark(this.state, field, { touched: true });
    this._host.requestUpdate();
  };

  readonly chooseMethod = (method: PaymentMethodId): void => {
    this.method = method;
    this._choose();
    void this._host.updateComplete.then(() => {
      this._refresh();
      this.emitChange();
    });
  };

  readonly chooseSaved = (token: string): void => {
    this.savedToken = token;
    this._choose();
    void this._host.updateComplete.then(() => this._refresh());
  };

  emitChange(): void {
    emit(this._host, 'payment-change', {
      valid: Object.keys(this.errors).length === 0,
      complete: this.fields().every((f) => (this.control(f)?.value ?? '') !== ''),
      network: this.network,
      paymentMethod: this.method,
    });
  }

  /** Another choice shows other fields: none of them has been submitted yet. */
  private _choose(): void {
    this.state = { ...this.state, submitted: false };
    this.status = '';
    this._host.requestUpdate();
  }

  /** Re-derives errors and the network from the inputs. */
  private _refresh(): void {
    const values = this.values();
    this.errors = validate(this.fields(), values);
    this.network = this.method === 'card' ? networkOf(values.number) : undefined;
    this._host.requestUpdate();
  }
}
