// Where the payment stands, as one value (the checkout controller owns it), and what
// the form offers meanwhile. Each controller keeps its own state and asks its element
// for a render when it changes (Lit's ReactiveController): the words in
// locales/controller.ts, the form's choices and errors in form/controller.ts, the
// lifecycle below in checkout/controller.ts.

import type { CheckoutView } from '../next-step/types.ts';
import { METHOD_IDS, type PaymentMethodId } from './methods/index.ts';

/** One of the customer's saved cards, as the form offers it. */
export interface SavedCard {
  token: string;
  last4: string;
  network: string;
}

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
 * - pending: accepted, not final (a boleto voucher); done: final, confirmed by the backend
 *   (it stays on screen while the basket's next checkout loads, until that one's form shows).
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
      /** Why a failure failed, in the shopper's words. */
      reason?: 'declined' | 'authFailed' | 'bankUnreachable' | 'noLongerValid' | undefined;
      /** After a failure, the button that pays the basket after all; none when nothing may. */
      offer?: 'tryAnotherCard' | 'tryAnotherWay' | undefined;
      /** That button was pressed: the basket's next checkout is on its way. */
      retrying?: boolean;
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
  return METHOD_IDS.filter((m) => named.includes(m));
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
