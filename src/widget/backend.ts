// The element's only door to the network: the merchant's companion handler
// (CONTRACT §3), never the provider, so no API key is ever needed here.
//
// Responses are checked by hand rather than with zod: the element reads five
// fields, and zod/mini would add about 3 KB gzip to a 16 KB budget.

import { isRecord } from '../next-step/action.ts';
import type { CheckoutView, PaymentMethodId } from '../next-step/types.ts';
import { en } from './locales/en.ts';

/** A failed call, in the shape the element turns into `payment-error`. */
export class BackendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'BackendError';
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

export class Backend {
  constructor(
    private readonly endpoint_: string,
    private readonly fetchImpl_: typeof fetch = (...args) => globalThis.fetch(...args),
  ) {}

  private url_(path: string): string {
    return `${this.endpoint_.replace(/\/+$/, '')}${path}`;
  }

  private async call_(path: string, init: RequestInit = {}): Promise<ProcessResult> {
    let response: Response;
    try {
      response = await this.fetchImpl_(this.url_(path), {
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

  private async checkout_(path: string, init?: RequestInit): Promise<CheckoutView> {
    const { body } = await this.call_(path, init);
    if (!isRecord(body) || typeof body.id !== 'string') {
      throw new BackendError('invalid_response', en.errBackend, 200);
    }
    return body as CheckoutView;
  }

  getCheckout(id: string, signal?: AbortSignal): Promise<CheckoutView> {
    return this.checkout_(`/checkouts/${encodeURIComponent(id)}`, { signal: signal ?? null });
  }

  createCheckout(order: unknown, signal?: AbortSignal): Promise<CheckoutView> {
    return this.checkout_('/checkouts', {
      method: 'POST',
      body: JSON.stringify({ order }),
      signal: signal ?? null,
    });
  }

  /** PUT the process body; the caller tells a 200 (checkout) from a 202 (next step). */
  process(id: string, body: unknown): Promise<ProcessResult> {
    return this.call_(`/checkouts/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: JSON.stringify(body),
    });
  }

  async paymentMethods(
    amount: number | undefined,
    currency: string | undefined,
    signal?: AbortSignal,
  ): Promise<PaymentMethodId[]> {
    const query = new URLSearchParams();
    if (amount !== undefined) query.set('amount', String(amount));
    if (currency) query.set('currency', currency);
    const { body } = await this.call_(`/payment-methods?${query}`, { signal: signal ?? null });
    const list = isRecord(body) ? body.available_payment_methods : undefined;
    if (!Array.isArray(list)) return [];
    return list.map((m) => (isRecord(m) ? m.id : undefined)).filter(isMethodId);
  }

  async savedCards(customerId: string, signal?: AbortSignal): Promise<SavedCard[]> {
    const { body } = await this.call_(
      `/customers/${encodeURIComponent(customerId)}/payment-instruments`,
      { signal: signal ?? null },
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
}
