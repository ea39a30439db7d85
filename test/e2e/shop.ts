/**
 * A real sandbox and the example shop on free loopback ports, started in this
 * process, recording every onPaid / onFailed call: what the end-to-end suites
 * pay through, whichever browser automation drives the page.
 */
import { type ServerExample, startServerExample } from '../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import type { Checkout } from '../../src/schemas/index.ts';
import { until } from '../shared/until.ts';

export interface Shop {
  /** The shop's base URL, ending in `/`. */
  url: string;
  sandbox: Sandbox;
  example: ServerExample;
  /** Every onPaid / onFailed call, in order. */
  hooks: { hook: 'paid' | 'failed'; id: string; status: string }[];
  /** A provider API call with the sandbox key, as the merchant's server would make. */
  provider(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

export interface ShopOptions {
  /** What onPaid does after it is recorded (a slow fulfilment, one that never returns). */
  fulfil?: (checkout: Checkout) => Promise<void>;
  /** How long a hook that has not returned keeps its claim (the handler's `hooks.leaseMs`). */
  leaseMs?: number;
}

/** The longest a webhook's retry waits in the shop's sandbox (the sandbox's own default is 30 s). */
const WEBHOOK_MAX_DELAY_MS = 8_000;

export async function startShop(options: ShopOptions = {}): Promise<Shop> {
  // A retry waits at most WEBHOOK_MAX_DELAY_MS, also when the shop's 503 asks for longer (a
  // hook still running answers with its lease's end, an hour in slow-hooks.spec.ts).
  const sandbox = await createSandbox({ port: 0, webhook: { maxDelayMs: WEBHOOK_MAX_DELAY_MS } });
  const hooks: Shop['hooks'] = [];
  const record = (hook: 'paid' | 'failed') => (checkout: Checkout) => {
    hooks.push({ hook, id: checkout.id ?? '', status: String(checkout.status) });
    return hook === 'paid' ? options.fulfil?.(checkout) : undefined;
  };
  const example = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
    onPaid: record('paid'),
    onFailed: record('failed'),
    ...(options.leaseMs === undefined ? {} : { hooks: { leaseMs: options.leaseMs } }),
    // Every shopper of a test run pays from 127.0.0.1: one shop serves a whole Playwright
    // worker, well over a hundred payments in a few minutes, which the default per-address
    // limit (60 per 10 minutes, for an office behind one address) refuses with 429 part way
    // through; and as many new baskets, whose checkout the home page's widget asks for. The
    // per-checkout limit stays as it is.
    rateLimit: { paymentsPerClient: { limit: 100_000 }, checkoutsPerClient: { limit: 100_000 } },
  });
  const provider: Shop['provider'] = (method, path, body) =>
    fetch(new URL(path, sandbox.url), {
      method,
      headers: {
        authorization: `Bearer ${sandbox.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const close = async () => {
    await example.close();
    await sandbox.close();
  };
  return { url: example.url, sandbox, example, hooks, provider, close };
}

/**
 * The two page shapes the README teaches, as the shop serves them: its pages name their
 * checkout by `order` (the widget asks the handler for the basket's checkout), and with
 * `checkout-id=1` by the id of a checkout the page route made. Every flow that reloads, goes
 * Back, opens a second tab or resumes runs on both.
 */
export const SHAPES = ['order', 'checkout-id'] as const;
export type Shape = (typeof SHAPES)[number];

/** `path` (`/?redirect=0`) as a page of `shape`. */
export function shaped(path: string, shape: Shape): string {
  if (shape === 'order') return path;
  const url = new URL(path, 'http://shop.invalid');
  url.searchParams.set('checkout-id', '1');
  return `${url.pathname}${url.search}`;
}

/** A basket's checkouts as the provider has them, attempt by attempt (`order-1`, `order-1~2`). */
export async function basketCheckouts(shop: Shop, reference: string) {
  const found: { id: string; status: string; transactions: { status: string }[] }[] = [];
  for (let attempt = 1; attempt < 10; attempt += 1) {
    const ref = attempt === 1 ? reference : `${reference}~${attempt}`;
    const res = await shop.provider(
      'GET',
      `/v0.1/checkouts?checkout_reference=${encodeURIComponent(ref)}`,
    );
    const [checkout] = (await res.json()) as (typeof found)[number][];
    if (!checkout) break;
    found.push(checkout);
  }
  return found;
}

/**
 * The checkout of the basket the shop's cookie (`shop_basket`, signed: `id.signature`)
 * names, its latest attempt: the one a page that names its checkout by `order` shows.
 */
export async function basketCheckout(shop: Shop, cookie: string | undefined): Promise<string> {
  const basket = decodeURIComponent(cookie ?? '').split('.')[0];
  if (!basket) throw new Error('the shop gave this shopper no basket cookie');
  const checkouts = await basketCheckouts(shop, `order-${basket}`);
  const latest = checkouts.at(-1);
  if (!latest) throw new Error(`the basket ${basket} has no checkout at the provider`);
  return latest.id;
}

/** The checkout as the provider has it (the truth the widget must agree with). */
export async function providerStatus(shop: Shop, id: string): Promise<string> {
  const response = await shop.provider('GET', `/v0.1/checkouts/${id}`);
  return String(((await response.json()) as { status?: unknown }).status);
}

/**
 * How many times checkout `id` charged the shopper, as the provider has it: its successful
 * payments, less those refunded in full (a second payment for a basket already paid is
 * refunded by the handler).
 */
export async function chargesOf(shop: Shop, id: string): Promise<number> {
  const response = await shop.provider('GET', `/v0.1/checkouts/${id}`);
  const { transactions = [] } = (await response.json()) as {
    transactions?: { id: string; type?: string; status: string }[];
  };
  let charged = 0;
  for (const t of transactions.filter((t) => t.status === 'SUCCESSFUL')) {
    const merchant = shop.sandbox.merchantCode;
    const full = await shop.provider(
      'GET',
      `/v2.1/merchants/${merchant}/transactions?id=${encodeURIComponent(t.id)}`,
    );
    const { simple_status } = (await full.json()) as { simple_status?: string };
    if (simple_status !== 'REFUNDED') charged += 1;
  }
  return charged;
}

/**
 * Waits until the sandbox has sent every webhook about checkout `id` and the shop has
 * answered each (the shop's webhook route answers once the hook it runs is done), at least
 * one of them. Those are what would run a checkout's hook a second time: once they are
 * answered, a count of its hook runs is final. A delivery answered 503 (its hook still
 * running) stays pending through the sandbox's retries, 0.5, 1, 2, 4 then 8 s apart, and
 * never more (WEBHOOK_MAX_DELAY_MS, whatever Retry-After the 503 names): the wait covers
 * the schedule up to its first 8 s.
 */
export async function webhooksAnswered(shop: Shop, id: string): Promise<void> {
  let seen: { state: string; payload: { id?: string } }[] = [];
  await until(
    () => `the webhooks about ${id} to be answered; deliveries: ${JSON.stringify(seen)}`,
    async () => {
      const res = await shop.provider('GET', '/sandbox/webhook-deliveries');
      const all = (await res.json()) as { state: string; payload: { id?: string } }[];
      seen = all.filter((d) => d.payload?.id === id);
      return seen.length > 0 && seen.every((d) => d.state !== 'pending');
    },
    20_000,
  );
}

/**
 * Checkout `id`'s hook runs once their count is final: waited for the first, then for every
 * webhook about it to be answered (webhooksAnswered). A second run would be among them.
 */
export async function hookRunsOf(shop: Shop, id: string): Promise<Shop['hooks']> {
  await until(`a hook to run for ${id}`, () => shop.hooks.some((h) => h.id === id));
  await webhooksAnswered(shop, id);
  return shop.hooks.filter((h) => h.id === id);
}

/** Any future expiry works in the sandbox. */
export const EXPIRY = '12/34';

export const CARDS = {
  paid: '4200000000000091',
  challenge: '4200000000000042',
  threeDsError: '4012001037461114',
} as const;
