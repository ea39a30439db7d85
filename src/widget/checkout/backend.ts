// The element's only door to the network: the merchant's companion handler
// (its routes under `endpoint`), never the provider, so no API key is ever
// needed here.
//
// Responses are checked by hand rather than with zod: the element reads five
// fields, and zod/mini would add about 3 KB gzip to a 20 KiB budget.

import { isRecord } from '../../next-step/action.ts';
import type { CheckoutView, PaymentMethodId } from '../../next-step/types.ts';
import { en } from '../locales/en.ts';

/** A failed call, in the shape the element turns into `payment-error`. */
export class BackendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
  ) {
    super(message);
  }

  /** Worth trying again unchanged: no answer, a timeout, rate limiting or a server fault. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

export interface SavedCard {
  token: string;
  last4: string;
  network: string;
}

export interface ProcessResult {
  status: number;
  body: unknown;
}

export const METHOD_IDS: readonly PaymentMethodId[] = [
  'card',
  'ideal',
  'bancontact',
  'blik',
  'boleto',
];

export function isMethodId(v: unknown): v is PaymentMethodId {
  return (METHOD_IDS as readonly unknown[]).includes(v);
}

/** A call to the companion handler at `endpoint`; a 4xx/5xx or no answer throws a BackendError. */
async function call(
  endpoint: string,
  path: string,
  init: RequestInit = {},
): Promise<ProcessResult> {
  let response: Response;
  try {
    response = await fetch(endpoint.replace(/\/+$/, '') + path, {
      ...init,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    // payment-error's message is for the merchant's logs: English, and the
    // bundle already carries these sentences for the shopper.
    throw new BackendError('network_error', en.errNetwork, 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = isRecord(body) && isRecord(body.error) ? body.error : {};
    throw new BackendError(
      typeof error.code === 'string' ? error.code : `http_${response.status}`,
      typeof error.message === 'string' ? error.message : response.statusText || en.errBackend,
      response.status,
    );
  }
  return { status: response.status, body };
}

async function checkoutAt(
  endpoint: string,
  path: string,
  init: RequestInit,
): Promise<CheckoutView> {
  const { body } = await call(endpoint, path, init);
  if (!isRecord(body) || typeof body.id !== 'string') {
    throw new BackendError('invalid_response', en.errBackend, 200);
  }
  return body as CheckoutView;
}

const checkoutPath = (id: string): string => `/checkouts/${encodeURIComponent(id)}`;

export function getCheckout(
  endpoint: string,
  id: string,
  signal: AbortSignal | null = null,
): Promise<CheckoutView> {
  return checkoutAt(endpoint, checkoutPath(id), { signal });
}

export function createCheckout(
  endpoint: string,
  order: unknown,
  signal: AbortSignal,
): Promise<CheckoutView> {
  return checkoutAt(endpoint, '/checkouts', {
    method: 'POST',
    body: JSON.stringify({ order }),
    signal,
  });
}

/** PUT the process body; the caller tells a 200 (checkout) from a 202 (next step). */
export function processCheckout(
  endpoint: string,
  id: string,
  body: unknown,
): Promise<ProcessResult> {
  return call(endpoint, checkoutPath(id), { method: 'PUT', body: JSON.stringify(body) });
}

/** The methods offered for the checkout's amount and currency (ids this widget knows). */
export async function paymentMethods(
  endpoint: string,
  checkout: CheckoutView,
  signal: AbortSignal,
): Promise<PaymentMethodId[]> {
  const query = new URLSearchParams();
  const { amount, currency } = checkout;
  if (typeof amount === 'number') query.set('amount', String(amount));
  if (typeof currency === 'string' && currency) query.set('currency', currency);
  const { body } = await call(endpoint, `/payment-methods?${query}`, { signal });
  const list = isRecord(body) ? body.available_payment_methods : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((m) => (isRecord(m) ? m.id : undefined)).filter(isMethodId);
}

export async function savedCards(
  endpoint: string,
  customerId: string,
  signal: AbortSignal,
): Promise<SavedCard[]> {
  const { body } = await call(
    endpoint,
    `/customers/${encodeURIComponent(customerId)}/payment-instruments`,
    { signal },
  );
  if (!Array.isArray(body)) return [];
  const cards: SavedCard[] = [];
  for (const item of body) {
    if (!isRecord(item) || typeof item.token !== 'string' || item.active === false) continue;
    const card = isRecord(item.card) ? item.card : {};
    cards.push({
      token: item.token,
      last4: typeof card.last_4_digits === 'string' ? card.last_4_digits : '',
      network: typeof card.type === 'string' ? card.type : 'UNKNOWN',
    });
  }
  return cards;
}
