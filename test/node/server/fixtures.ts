// Shared set-up for the handler tests: a real sandbox on a random port and a
// handler wired to it with a tiny server-side catalogue.
import { after, before, beforeEach } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import {
  createPaymentHandler,
  createProviderClient,
  type PaymentHandlerError as HandlerErrorType,
  type HookOptions,
  type PaymentHandler,
  PaymentHandlerError,
  type PaymentHandlerOptions,
  type ProviderOptions,
  type ResultPages,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';

export const ORIGIN = 'https://shop.example';
/** Nothing listens here: the sandbox's webhook deliveries fail fast and are not retried. */
export const PUBLIC_URL = 'http://127.0.0.1:9/payments';

/** Prices live on the server; the browser only names the item. */
export const CATALOGUE: Record<string, { amount: number; currency: string }> = {
  tea: { amount: 10, currency: 'EUR' },
  declined: { amount: 11, currency: 'EUR' },
  boleto: { amount: 25.5, currency: 'BRL' },
};

export function startSandbox(): Promise<Sandbox> {
  return createSandbox({ port: 0, webhook: { attempts: 1 } });
}

export interface Harness {
  /** The handler itself: call it with a Request; `reconcile()` and `createCheckout()` too. */
  handle: PaymentHandler;
  paid: Checkout[];
  failed: Checkout[];
  logs: string[];
}

/** Options a test changes: a group given here is merged into the harness's, not put in its place. */
export interface HandlerOverrides
  extends Partial<Omit<PaymentHandlerOptions, 'provider' | 'hooks' | 'resultPages'>> {
  provider?: Partial<ProviderOptions>;
  hooks?: HookOptions;
  resultPages?: Partial<ResultPages>;
}

export function makeHandler(sb: Sandbox, overrides: HandlerOverrides = {}): Harness {
  const paid: Checkout[] = [];
  const failed: Checkout[] = [];
  const logs: string[] = [];
  const { provider, hooks, resultPages, ...rest } = overrides;
  const handle = createPaymentHandler({
    provider: {
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      merchantCode: sb.merchantCode,
      retries: 1,
      ...provider,
    },
    publicUrl: PUBLIC_URL,
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/result?outcome=success',
      failure: 'https://shop.example/result?outcome=failure',
      ...resultPages,
    },
    resolveCheckout(order) {
      const sku =
        typeof order === 'object' && order !== null ? (order as { sku?: unknown }).sku : order;
      const item = typeof sku === 'string' ? CATALOGUE[sku] : undefined;
      if (item === undefined) {
        throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order');
      }
      const redirect = (order as { redirect?: boolean }).redirect;
      return {
        ...item,
        description: `Order of ${sku}`,
        ...(redirect === false ? { redirect } : {}),
      };
    },
    hooks: {
      onPaid: (checkout) => {
        paid.push(checkout);
      },
      onFailed: (checkout) => {
        failed.push(checkout);
      },
      ...hooks,
    },
    logger: (entry) => logs.push(JSON.stringify(entry)),
    ...rest,
  });
  return { handle, paid, failed, logs };
}

export type { HandlerErrorType };

/**
 * One sandbox for the file (started before its tests, closed after them) and a new handler
 * on it before each test: `use` receives both.
 */
export function handlerPerTest(use: (sb: Sandbox, h: Harness) => void): void {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    use(sb, makeHandler(sb));
  });
}

interface CallOptions {
  body?: unknown;
  /** Sent as is (no JSON encoding) when a string. */
  raw?: string;
  origin?: string | null;
  contentType?: string | null;
}

export function request(method: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers();
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers.set('origin', origin);
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && contentType !== null) headers.set('content-type', contentType);
  return new Request(`http://127.0.0.1/payments${path}`, { method, headers, body });
}

export async function createCheckout(h: Harness, order: unknown = { sku: 'tea' }) {
  const res = await h.handle(request('POST', '/checkouts', { body: { order } }));
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Checkout & { id: string };
}

/**
 * A checkout created through `h`, then paid at the provider behind the handler's back, as a
 * completed 3DS challenge or bank page would (so no report has run a hook yet): its id and
 * the provider's answer. A `declined` order's payment fails.
 */
export async function paidAtProvider(sb: Sandbox, h: Harness, order: unknown = { sku: 'tea' }) {
  const { id } = await createCheckout(h, order);
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const result = await provider.checkouts.process(id, cardBody('4200000000000091'));
  return { id, result };
}

/** How many checkouts the sandbox was asked to create (its request log). */
export async function checkoutsCreated(sb: Sandbox): Promise<number> {
  const res = await fetch(`${sb.url}/sandbox/requests`, {
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  const log = (await res.json()) as { method: string; path: string }[];
  return log.filter((r) => r.method === 'POST' && r.path === '/v0.1/checkouts').length;
}

/** The provider's notification that checkout `id` changed, as it reaches the handler. */
export function webhookRequest(id: string): Request {
  return request('POST', '/webhook', {
    origin: null,
    body: { event_type: 'CHECKOUT_STATUS_CHANGED', id },
  });
}
