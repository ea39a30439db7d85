// The contract between the element (src/widget) and the next-step module
// (src/next-step): the element turns a process response into an Action, hands
// it to `runAction`, and acts on the Outcome. Kept structural (no zod types) so
// both sides can be built and tested apart.

/**
 * The fields of the provider's `next_step` (a 202, as the merchant backend
 * forwards it) that a runner reads; `redirect_url` and `mechanism` are not
 * needed (the checkout's own redirect_url picks iframe or page) and not kept.
 */
export interface NextStepFields {
  url?: string;
  method?: string;
  payload?: Record<string, string>;
  full?: string;
}

/** The part of a checkout the next-step module reads; the rest passes through. */
export interface CheckoutView {
  id?: string;
  status?: string;
  redirect_url?: string;
  boleto?: { barcode?: string; url?: string };
  [key: string]: unknown;
}

export type ChallengeMode = 'auto' | 'iframe' | 'redirect';

/** A step that leaves the page: a full-page 3DS challenge, or a bank's page. */
export type PageAction =
  | { kind: 'challenge-redirect'; nextStep: NextStepFields }
  | { kind: 'apm-redirect'; nextStep: NextStepFields };

/** What to do next; one runner per kind (see src/next-step/index.ts). */
export type Action =
  | { kind: 'challenge-iframe'; nextStep: NextStepFields }
  | PageAction
  | { kind: 'voucher'; checkout: CheckoutView }
  /**
   * A page step still open when the widget loaded again (the back button from the bank's
   * page, a reload): offered again with a button, never followed by itself.
   */
  | { kind: 'offer'; step: PageAction }
  /**
   * A step that was open and cannot be shown again (the handler no longer holds it): the
   * bank's answer is awaited. `bank`: the step was a bank's page, not a card's 3DS.
   */
  | { kind: 'waiting'; bank: boolean };

export type StringKey =
  | 'challengeTitle'
  | 'challengeLoading'
  | 'cancel'
  | 'pending'
  | 'pendingWait'
  | 'resumeWhy'
  | 'tryAnotherCard'
  | 'tryAnotherWay'
  | 'voucherTitle'
  | 'voucherBarcode'
  | 'copy'
  | 'copied'
  | 'copyManual'
  | 'openVoucher';

export interface NextStepContext {
  /** An element in the widget's shadow root where the iframe or voucher is rendered. */
  container: HTMLElement;
  /**
   * Re-reads the checkout through the merchant backend: GET {endpoint}/checkouts/:id. The
   * caller aborts `signal` when it stops waiting (its deadline, or the step went away).
   */
  confirm(signal: AbortSignal): Promise<CheckoutView>;
  /**
   * The origin of the merchant's handler, whose return ends a challenge shown in the iframe
   * when the checkout has a redirect_url: a page of that origin in the frame is over.
   */
  returnOrigin?: string;
  /** Called just before an iframe challenge shows or a navigation starts (emits payment-challenge). */
  onChallenge(detail: { mode: 'iframe' | 'redirect'; url: string }): void;
  /** Localised strings, with `{amount}` filled in (the checkout's, as the locale writes money). */
  t(key: StringKey): string;
  /** Aborts polling and removes what the runner rendered (element disconnected or reset). */
  signal: AbortSignal;
  /** Leaves the page; injectable so unit tests do not navigate. Default: a real top-level navigation. */
  navigate?: (request: {
    url: string;
    method: 'GET' | 'POST';
    fields: Record<string, string>;
  }) => void;
  /**
   * Whether a checkout's status is final: src/domain's isFinalStatus, handed in rather than
   * imported. The widget loads the next steps in a part of their own, and a part that
   * imported what the form's first paint also holds would make a page's bundler split that
   * into a chunk of its own (87 B more before the first paint, over its budget).
   */
  isFinal(status: unknown): boolean;
  /** Polling schedule for tests; default about 2 s, slowing to 5 s, for at most 15 minutes. */
  poll?: { firstMs: number; maxMs: number; totalMs: number };
}

export type Outcome =
  /** The backend confirmed a final status (PAID, FAILED or EXPIRED). */
  | { kind: 'final'; checkout: CheckoutView }
  /** Accepted but not final: a voucher is shown, or polling ran out while PENDING. */
  | { kind: 'pending'; checkout: CheckoutView }
  /**
   * The user cancelled the challenge, or chose another card over a step offered again or
   * awaited: show the form again; the checkout can still be paid.
   */
  | { kind: 'cancelled' }
  /** The page is navigating away (full-page 3DS or bank redirect). */
  | { kind: 'navigating' }
  /** The next step was refused (a URL that is not https, or http off loopback, or another scheme). */
  | { kind: 'refused'; code: 'UNSAFE_NEXT_STEP'; message: string };
