// Everything <payment-widget> renders from, besides its public properties: the
// element's internal reactive state, one place to read what is on screen and
// who changes it. Each is a Lit reactive property (`state: true`), so an
// assignment is the update (for the form state and the errors, an assignment of
// a different value: see byValue): no controller keeps a copy, none asks for a render.
//
// The names start with `_`: the build shortens them (see vite.config.ts) and
// they never become attributes or part of the element's documented API.

import type { PropertyDeclaration } from 'lit';
import type { CardNetwork } from '../card/index.ts';
import { PAYMENT_METHOD_IDS, type PaymentMethodId } from '../domain/checkout.ts';
import type { CheckoutView } from '../next-step/types.ts';
import type { SavedCard } from './checkout/backend.ts';
import type { Errors, FormState } from './form/fields.ts';
import type { Strings } from './locales/en.ts';

/** A checkout that can be paid, and what with. */
export interface Payable {
  checkout: CheckoutView;
  /** The methods offered, in screen order. */
  methods: PaymentMethodId[];
  /** The customer's saved cards (none unless card is offered). */
  savedCards: SavedCard[];
}

/**
 * Where the payment stands, as one value: no two of these can hold at once.
 * - loading: the checkout and its methods are on their way (a placeholder form shows);
 * - broken: nothing to pay (it failed to load, or cannot be paid any more);
 * - form: the shopper fills in the form; busy: the process request is out;
 * - step: a next step (3DS, a bank) is on screen;
 * - pending: accepted, not final (a boleto voucher); done: final, confirmed by the backend.
 */
export type Lifecycle =
  | { kind: 'loading' }
  | { kind: 'broken'; retryable: boolean }
  | ({ kind: 'form' } & Payable)
  | ({ kind: 'busy' } & Payable)
  | ({ kind: 'step' } & Payable)
  | { kind: 'pending'; checkout: CheckoutView }
  | {
      kind: 'done';
      outcome: 'success' | 'failure';
      checkout: CheckoutView;
      /** Why a failure failed, in the shopper's words; and whether another card may try. */
      reason?: 'declined' | 'authFailed' | 'noLongerValid' | undefined;
    };

/** The element's internal reactive state, with the one controller that writes each. */
export interface WidgetState {
  /** The words on screen (LocaleController). */
  _strings: Strings;
  /** Where the payment stands (CheckoutController). */
  _lifecycle: Lifecycle;
  /** The chosen payment method (FormController; the checkout's load picks the first). */
  _method: PaymentMethodId;
  /** The chosen saved card; '' means "use a new card" (FormController). */
  _savedToken: string;
  /** Which fields the shopper has touched and changed, and whether they submitted (FormController). */
  _formState: FormState;
  /** What is wrong with each field on screen (FormController). */
  _errors: Errors;
  /** The card's network as typed so far (FormController). */
  _network: CardNetwork | undefined;
  /** The live region's text: why a submit or a load did not go through (FormController.setStatus). */
  _status: string;
}

// One declaration object for all: Lit reads it (and sets `attribute: false` on it) the same for each.
const internal: PropertyDeclaration = { state: true };

// Plain data, compared by value: the form controller assigns a new object on every
// keystroke (the field now dirty, the errors found again), and one equal to the last must
// not render the whole form again. Keep these two JSON data (no Dates, Maps or functions).
const byValue: PropertyDeclaration = {
  state: true,
  hasChanged: (value, old) => JSON.stringify(value) !== JSON.stringify(old),
};

/** The static `properties` entries of WidgetState. */
export const STATE: Record<keyof WidgetState, PropertyDeclaration> = {
  _strings: internal,
  _lifecycle: internal,
  _method: internal,
  _savedToken: internal,
  _formState: byValue,
  _errors: byValue,
  _network: internal,
  _status: internal,
};

/** The checkout and its methods, in the states that show the form. */
export function payable(lifecycle: Lifecycle): Payable | undefined {
  return 'methods' in lifecycle ? lifecycle : undefined;
}

/**
 * The methods a `payment-methods` attribute names, in screen order (unknown
 * words dropped); none when it names none.
 */
export function namedMethods(attribute: string | undefined): PaymentMethodId[] {
  const named = (attribute ?? '').split(/\s+/);
  return PAYMENT_METHOD_IDS.filter((m) => named.includes(m));
}

/**
 * The methods the form will most likely offer, known before the backend says:
 * those the page names, else card. The placeholder shown while loading is
 * that form, so a page that names its methods does not move when they arrive.
 */
export function expectedMethods(attribute: string | undefined): PaymentMethodId[] {
  const named = namedMethods(attribute);
  return named.length > 0 ? named : ['card'];
}
