// The element's only door to the network: the merchant's companion handler
// (its routes under `endpoint`), never the provider, so no API key is ever
// needed here.
//
// Every call has a time limit and an abort, and sends an `X-Request-Id` of its
// own that the handler passes on to the provider: the id in `payment-error`
// finds the request in the merchant's and the provider's logs.
//
// Responses are checked by hand rather than with zod: the element reads five
// fields, and zod/mini would add about 3 KB gzip to a 14 KiB budget.

import type { PaymentErrorCode } from '../../domain/errors.ts';
import type { CheckoutView } from '../../next-step/types.ts';
import { isRecord } from '../../shared/record.ts';
import { newRequestId } from '../../shared/request-id.ts';
import { formWords } from '../locales/english/form.ts';
import { isPaymentMethodId, type PaymentMethodId } from '../methods/index.ts';

/** A failed call, in the shape the element turns into `payment-error`. */
export class BackendError extends Error {
  readonly code: PaymentErrorCode;
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** The handler's word when it sent one; else the widget's for that status. */
  readonly retryable: boolean;
  /** The `X-Request-Id` of the call that failed. */
  readonly requestId: string | undefined;
  // Neither name starts with `_`: the pay part reads them, across the bundle's edge.
  /** A 429's `Retry-After` (the handler's rate limit), in seconds; 0 or NaN when unsaid. */
  readonly retryAfter: number;
  /** The call that was answered with this error: `POST /payments/...`, as the endpoint says it. */
  readonly called: string;
  constructor(
    code: PaymentErrorCode,
    message: string,
    status: number,
    retryable: boolean,
    requestId?: string,
    retryAfter = 0,
    call = '',
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryable = retryable;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
    this.called = call;
  }
}

/** Worth trying again unchanged: no answer, a timeout or a server fault. */
const retryableStatus = (status: number): boolean =>
  status === 0 || status === 408 || status >= 500;

/** How long a call may take: a read, and a payment (the provider may take its time). */
export const TIMEOUT_MS = { read: 15_000, process: 30_000 };

/** A call's answer: its HTTP status and its JSON body (undefined when empty or not JSON). */
export interface BackendAnswer {
  status: number;
  body: unknown;
  /** What was called, as BackendError's `called` says it. */
  called: string;
}

export interface CallInit {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  signal?: AbortSignal | null | undefined;
  timeoutMs?: number;
}

/**
 * A call to the companion handler at `endpoint`; an error answer, no answer or no answer in
 * time throws a BackendError. An abort by `signal` rejects with the signal's own error, so
 * the caller can tell "stopped" from "failed". A call the browser failed as the page was left is
 * tried again a moment later if the page is still there (`tries` counts), never a PUT.
 */
export async function call(
  endpoint: string,
  path: string,
  init: CallInit = {},
  tries = 0,
): Promise<BackendAnswer> {
  const requestId = newRequestId();
  const { signal } = init;
  // AbortSignal.any and AbortSignal.timeout are newer than Safari 15: one controller, by hand.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, init.timeoutMs ?? TIMEOUT_MS.read);
  const stop = () => controller.abort();
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop);
  const url = endpoint.replace(/\/+$/, '') + path;
  // What was called, for the console (./report.ts makes the URL whole): `POST /payments/x`.
  const called = `${init.method ?? 'GET'} ${url}`;
  // A page being left (a link, a reload, Back) has its calls failed by the browser, Firefox's
  // before `pagehide`: only `beforeunload` comes first. Heard only while a call is out, for a
  // page with such a listener is kept out of Firefox's back-forward cache. A retry (`tries`,
  // below) is one made as the page was left.
  let leaving = tries > 0;
  const left = () => {
    leaving = true;
  };
  addEventListener('beforeunload', left);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      // The page's cookies for the handler's site go with every call, on another origin too
      // (api.shop.example beside shop.example): the shop finds the shopper's basket by them.
      // The handler lets only its allowedOrigins read such answers.
      credentials: 'include',
      headers: {
        accept: 'application/json',
        'x-request-id': requestId,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: controller.signal,
    });
    // The body is inside the time limit too: an answer that stalls halfway is no answer.
    text = await response.text();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    // Failed as the page was left: nothing is said, for a page that is gone runs no timer. One
    // still here a moment later (a download, a cancelled navigation) tries again; WebKit fails
    // every call until the next page has come, so a retry that failed waits twice as long, 4
    // retries at most (15 s), the last one's failure said. A PUT (Pay) may have reached the
    // handler: never sent again, its failure is said a moment later (./pay.ts reads it back).
    if (leaving && tries < 4) {
      await new Promise((r) => setTimeout(r, 1e3 << tries));
      if (init.method !== 'PUT') return call(endpoint, path, init, tries + 1);
    }
    // payment-error's message is for the merchant's logs: English, and the
    // bundle already carries these sentences for the shopper.
    throw new BackendError(
      timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      formWords.errNetwork,
      0,
      true,
      requestId,
      0,
      called,
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    removeEventListener('beforeunload', left);
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    const status = response.status;
    // The handler's error body: its code and its `retryable`, passed on as they are.
    if (error && typeof error.code === 'string') {
      throw new BackendError(
        error.code as PaymentErrorCode,
        typeof error.message === 'string' ? error.message : formWords.errBackend,
        status,
        typeof error.retryable === 'boolean' ? error.retryable : retryableStatus(status),
        requestId,
        status === 429 ? Number(response.headers.get('retry-after')) : 0,
        called,
      );
    }
    throw new BackendError(
      'BACKEND_ERROR',
      response.statusText || formWords.errBackend,
      status,
      retryableStatus(status),
      requestId,
      0,
      called,
    );
  }
  return { status: response.status, body, called };
}

/** A call whose answer is a checkout (its id at least); anything else is INVALID_RESPONSE. */
export async function checkoutAt(
  endpoint: string,
  path: string,
  init: CallInit,
): Promise<CheckoutView> {
  const { body, status, called } = await call(endpoint, path, init);
  if (!isRecord(body) || typeof body.id !== 'string') {
    // Not the handler's (an HTML page where it should be): the console says where.
    throw new BackendError(
      'INVALID_RESPONSE',
      'not a checkout',
      status,
      false,
      undefined,
      0,
      called,
    );
  }
  return body as CheckoutView;
}

export const checkoutPath = (id: string): string => `/checkouts/${encodeURIComponent(id)}`;

export function getCheckout(
  endpoint: string,
  id: string,
  signal: AbortSignal | null = null,
  timeoutMs: number = TIMEOUT_MS.read,
): Promise<CheckoutView> {
  return checkoutAt(endpoint, checkoutPath(id), { signal, timeoutMs });
}

export function createCheckout(
  endpoint: string,
  order: unknown,
  signal: AbortSignal,
): Promise<CheckoutView> {
  return checkoutAt(endpoint, '/checkouts', { method: 'POST', body: { order }, signal });
}

/** The methods offered for the checkout's amount and currency (ids this widget knows). */
export async function paymentMethods(
  endpoint: string,
  checkout: CheckoutView,
  signal: AbortSignal,
): Promise<PaymentMethodId[]> {
  const query = new URLSearchParams();
  for (const key of ['amount', 'currency', 'purpose']) {
    const value = checkout[key];
    if (typeof value === 'number' || (typeof value === 'string' && value))
      query.set(key, `${value}`);
  }
  const { body } = await call(endpoint, `/payment-methods?${query}`, { signal });
  const list = isRecord(body) ? body.available_payment_methods : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((m) => (isRecord(m) ? m.id : undefined)).filter(isPaymentMethodId);
}
