// The words every part of the project uses for a checkout's state: one definition,
// imported by the schemas, the sandbox, the handler, the widget and the next-step module.
// (The payment methods are each side's own list: src/widget/methods/, src/schemas/methods/,
// src/sandbox/methods/.) No imports and nothing but a few strings, so the widget's bundle
// can take it whole.

/** Every status the provider documents for a checkout. */
export const CHECKOUT_STATUSES = ['PENDING', 'FAILED', 'PAID', 'EXPIRED'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The statuses a checkout never leaves: the outcome hooks run for these. */
export type FinalStatus = Exclude<CheckoutStatus, 'PENDING'>;

/**
 * Whether `status` is final. Anything else, including a status this code does not know
 * (a newer provider's), is not: keep confirming until the deadline, then call it pending.
 * A paid checkout must never be reported as anything else, so guessing "final" for an
 * unknown word is never safe.
 */
export function isFinalStatus(status: unknown): status is FinalStatus {
  return status === 'PAID' || status === 'FAILED' || status === 'EXPIRED';
}

/**
 * The message a 3DS challenge's end page posts to the widget's window (the provider's end
 * page, or the handler's return page when the challenge ran in an iframe): the bare string,
 * or `{ type, checkout_id, status }`. Only a hint: the widget confirms through its backend.
 */
export const CHALLENGE_COMPLETE = 'payment-widget:challenge-complete';

/**
 * How the name of the widget's 3DS challenge frame begins (a random tail follows). The
 * handler's return page, answering a frame, stays put in a frame so named and goes on to the
 * result page in any other: a shop page framed by the merchant or another site.
 */
export const CHALLENGE_FRAME = 'payment-widget-challenge-';
