import type { ReactiveController, ReactiveControllerHost, SVGTemplateResult } from 'lit';
import { differs } from '../../shared/record.ts';
import { nextFrame } from '../frame.ts';
import type { Strings } from '../locales/en.ts';
import { METHODS, type PaymentMethodId } from '../methods/index.ts';
import type { PartsController } from '../parts/controller.ts';
import type { PartModules } from '../parts/types.ts';
import type { SavedCard } from '../state.ts';
import type { Control, FormView, TypingForm } from './context.ts';
import { emptyForm, errorShown, type FieldName, mark, type Shown } from './fields.ts';

/** What the form controller reads from its element. */
interface FormHost extends ReactiveControllerHost, HTMLElement, Shown {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The most installments offered (the installments field's choices). */
  readonly maxInstallments: number;
}

/** What the form controller asks of the element's other controllers. */
export interface FormContext {
  /** Whether the checkout is loading (the form on screen is its placeholder). */
  loading(): boolean;
  /** The words on screen. */
  strings(): Strings;
  /** The parts that load when needed: the typing part brings the card rules. */
  parts: PartsController;
}

/**
 * The form's state and its events: typing, choosing a method or a saved card, when an
 * error shows, and the room it keeps while the checkout loads. It owns what it decides
 * (the chosen method and card, touched fields, errors, the network, the live region's
 * text) and asks the element for a render when any of it changes. Values are read from
 * the inputs at the moment they are needed, so the card number and security code are
 * never kept.
 *
 * What typing does with the card rules (regrouping, networks, validation, payment-change)
 * is the pay part's (./typing.ts), asked for as the checkout loads (start()), before the
 * form can be focused: what is typed before it arrives
 * stays as typed, and is regrouped and checked when it comes. Typing is never held up by
 * it.
 */
export class FormController implements ReactiveController, TypingForm {
  /** What the form shows: changed only through set(), which asks for a render. */
  private _view: FormView = {
    method: 'card',
    savedToken: '',
    formState: emptyForm(),
    errors: {},
    network: undefined,
    status: '',
  };
  /** The customer's saved cards offered with this checkout. */
  savedCards: SavedCard[] = [];
  /** The host is rendering: a field losing focus now is being removed by that render. */
  private _rendering = false;
  /** Whether the form on screen is the placeholder shown while the checkout loads. */
  private _placeholder: boolean | undefined;
  /** The pay part, asked for once (start()). */
  private _started: Promise<void> | undefined;
  /** An edit made before the card rules came: the page hears of it when they do. */
  private _unsaid = false;

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

  readonly host: FormHost;
  private readonly _context: FormContext;

  constructor(host: FormHost, context: FormContext) {
    this.host = host;
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

  /**
   * What the form shows besides what is typed: the chosen method and saved card, what is
   * wrong with each field, the network, the live region's text.
   */
  get view(): FormView {
    return this._view;
  }

  /** The mark of the card's network; none while it is unknown (or the card rules have not come). */
  get mark(): SVGTemplateResult | undefined {
    return this._typing()?.networkMark(this._view.network);
  }

  strings(): Strings {
    return this._context.strings();
  }

  hostUpdate(): void {
    this._rendering = true;
    const host = this.host;
    const loading = this._context.loading();
    if (loading === this._placeholder) return;
    this._placeholder = loading;
    // The placeholder is hidden from assistive technology: the host says it is busy.
    if (this._internals) this._internals.ariaBusy = loading ? 'true' : null;
    // Loading never shrinks the widget: the form it ends in keeps at least the
    // placeholder's height (a saved card needs less room than the card fields
    // expected), so nothing under the widget moves up, until the shopper
    // chooses something else (choose()). A new load measures afresh.
    const form = host.renderRoot.querySelector('form');
    if (form) form.style.minHeight = loading ? '' : `${form.getBoundingClientRect().height}px`;
  }

  hostUpdated(): void {
    this._rendering = false;
  }

  /**
   * Once the form is on screen: after its first paint, and the pay part it needs to be used
   * (asked for as the checkout loads: start()). Resolves when it has loaded, or failed (it
   * says so in the console; paying asks again).
   */
  ready(): Promise<void> {
    return nextFrame().then(() => this.start());
  }

  /**
   * Asks for the pay part, once (the checkout controller, as it loads the checkout); resolves
   * when it has loaded or failed. What was typed before it came is formatted then.
   */
  start(): Promise<void> {
    this._started ??= this._context.parts.load('pay').then(
      (pay) => {
        pay.arrived(this);
        if (this._unsaid) this._changed();
      },
      () => undefined,
    );
    return this._started;
  }

  /** Chooses the first of the methods offered, and the first saved card. */
  offer(methods: PaymentMethodId[], savedCards: SavedCard[]): void {
    this.savedCards = savedCards;
    this.set({ method: methods[0] ?? 'card', savedToken: savedCards[0]?.token ?? '' });
  }

  /** The fields on screen, in focus order. */
  fields(): FieldName[] {
    const { method, savedToken } = this._view;
    return METHODS[method].fields(this.host, savedToken !== '');
  }

  setStatus(text: string): void {
    this.set({ status: text });
  }

  /** What the shopper reads under a field; '' while it has no error (none before the pay part). */
  message(field: FieldName): string {
    return this._typing()?.message(this, field) ?? '';
  }

  /** Whether a field's error is on screen. */
  errorShown(field: FieldName): boolean {
    return errorShown(this._view.formState, field) && this._view.errors[field] !== undefined;
  }

  /** Empties every field and hides every error; the choice of method stays. */
  reset(): void {
    for (const input of this.host.renderRoot.querySelectorAll<Control>('input, select')) {
      if (input instanceof HTMLSelectElement) input.selectedIndex = 0;
      else if (input.type === 'checkbox') input.checked = false;
      // A radio's value names its choice: only what was typed is emptied.
      else if (input.type !== 'radio') input.value = '';
    }
    this.clear();
    this.set({ savedToken: this.savedCards[0]?.token ?? '' });
  }

  /** Nothing touched, nothing wrong, nothing to say: a fresh form (for another checkout). */
  clear(): void {
    this.set({ formState: emptyForm(), errors: {}, network: undefined, status: '' });
  }

  // Event handlers, as arrow functions: Lit calls listeners with the element as `this`.

  /**
   * An edit: `input`, an IME's `compositionend`, and `change`, the only event some password
   * managers fire after setting a field's value. After a typed edit, `change` on leaving the
   * field finds it already formatted, and only says payment-change once more.
   */
  readonly onInput = (event: Event): void => {
    const input = event.target as Control;
    const field = input.dataset.field as FieldName | undefined;
    if (!field) return;
    // Text an IME is still composing is the IME's (compositionend comes here too): set
    // meanwhile, the value ends the composition, and the IME types its text again.
    if (!(event as InputEvent).isComposing) this._typing()?.regroup(this, input, field);
    this.set({ formState: mark(this._view.formState, field, { dirty: input.value !== '' }) });
    this._changed();
  };

  readonly onBeforeInput = (event: InputEvent): void => {
    this._typing()?.beforeInput(event);
  };

  readonly onFocusOut = (event: FocusEvent): void => {
    const field = (event.target as HTMLElement).dataset?.field as FieldName | undefined;
    // A field that a render removes while it has focus (another method chosen,
    // the outcome shown) loses it on the way out: the shopper did not leave it,
    // and another render requested from inside this one would be wasted.
    if (!field || this._rendering) return;
    this.set({ formState: mark(this._view.formState, field, { touched: true }) });
  };

  readonly chooseMethod = (method: PaymentMethodId): void => {
    this.set({ method });
    this.choose();
    void this.host.updateComplete.then(() => this._changed());
  };

  /**
   * Changes what the form shows, and asks for a render only when something differs. All of
   * it is plain data compared by value: a keystroke makes a new but often equal form state
   * and errors, and an equal one must not render the whole form again.
   */
  set(next: Partial<FormView>): void {
    const view = { ...this._view, ...next };
    if (!differs(view, this._view)) return;
    this._view = view;
    this.host.requestUpdate();
  }

  /** The pay part, which brings the card rules, once it has come. */
  private _typing(): PartModules['pay'] | undefined {
    return this._context.parts.get('pay');
  }

  /**
   * After an edit: errors and the network derived again, and payment-change. Without the
   * card rules nothing can be said of the form yet: they say it when they come.
   */
  private _changed(): void {
    const typing = this._typing();
    this._unsaid = !typing;
    typing?.edited(this);
  }

  /**
   * Another choice shows other fields: none of them has been submitted yet, and
   * the form takes the size they need (the space kept since loading is let go).
   */
  choose(): void {
    this.set({ formState: { ...this._view.formState, submitted: false }, status: '' });
    const form = this.host.renderRoot.querySelector('form');
    if (form) form.style.minHeight = '';
  }
}
