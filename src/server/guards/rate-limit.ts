/**
 * The card-testing defence: how many checkouts one client may create, how many payments it
 * may attempt, and how many attempts one checkout may take, per window. A bot that tests
 * stolen cards creates checkout after checkout (the provider refuses a second payment of a
 * failed one) and pays each: every one a call on the merchant's key and quota.
 *
 * Over a limit the handler answers 429 `TOO_MANY_REQUESTS` with `Retry-After` before it calls
 * the provider. The counters are fixed windows in the payment store (`hit`), so every
 * instance that shares the store shares them; a store without `hit`, or one that fails, is
 * stood in for by this process's memory, so the limits still hold per instance.
 */
import type { Context } from 'hono';
import { PaymentHandlerError } from '../errors.ts';
import type { LimitName, RateLimit, ResolvedRateLimit } from '../options/rate-limit.ts';
import { countingWith } from '../store/counting.ts';
import type { CounterStore } from '../store/types.ts';
import type { HandlerEnv, Logger } from '../types.ts';
import { addressBucket, clientAddressOf } from './client-address.ts';

const WHAT: Record<LimitName, string> = {
  checkoutsPerClient: 'Too many checkouts were created from this client',
  paymentsPerClient: 'Too many payment attempts from this client',
  paymentsPerCheckout: 'Too many payment attempts on this checkout',
  reportsPerClient: 'Too many reports from this client',
};

export interface RateLimiter {
  /**
   * Counts the request against the client's `perClient` limit and, with a `checkoutId`, that
   * checkout's payments; throws a 429 when over one. Mounted by middleware/rate-limit.ts.
   */
  check(
    c: Context<HandlerEnv>,
    perClient: 'checkoutsPerClient' | 'paymentsPerClient' | 'reportsPerClient',
    checkoutId?: string,
  ): Promise<void>;
}

/** Seconds, at least 1: `Retry-After` of 0 would invite the retry at once. */
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export function createRateLimiter(
  options: ResolvedRateLimit | false,
  deps: {
    /** The store's counters; undefined when it keeps none. */
    counters: CounterStore | undefined;
    merchantCode: string;
    log: Logger;
    /** Told of each refused request, with the limit whose window it must wait out. */
    refused: (limit: LimitName) => void;
  },
): RateLimiter {
  const off: RateLimiter = { check: async () => {} };
  if (options === false) return off;
  const { limits, clientKey, ipv6Prefix } = options;
  const sources = { clientAddress: options.clientAddress, trustedProxies: options.trustedProxies };
  const { counters: store, log } = deps;
  // One hash tag for the merchant's counters: a request's counters go to Redis in one script,
  // whose keys must share a slot on a Redis Cluster.
  const keyPrefix = `rate:{${deps.merchantCode}}:`;

  if (store === undefined) {
    log({
      level: 'warn',
      message: 'rate limits: the store has no hit(), so each instance counts requests on its own',
    });
  }
  // Refusing every payment while the store is away would turn its outage into the shop's.
  const hit = countingWith(store?.hit, (error) =>
    log({
      level: 'warn',
      message: `rate limits: the store failed (${String(error)}); counting in this instance until it is back`,
    }),
  );

  const warned = new Set<string>();
  const warnOnce = (topic: string, message: string) => {
    if (warned.has(topic)) return;
    warned.add(topic);
    log({ level: 'warn', message: `rate limits: ${message}` });
  };

  /** The client's bucket: its key, else its address's; undefined when neither is known. */
  async function clientOf(c: Context<HandlerEnv>): Promise<string | undefined> {
    const request = c.req.raw;
    const address = clientAddressOf(request, c.env.runtime, sources);
    const key = clientKey === undefined ? undefined : await clientKey(request, address);
    if (typeof key === 'string' && key !== '') return `key:${key}`;
    if (address === undefined) {
      // Where the merchant's clientAddress ran and found nothing (a header their proxy sets,
      // reached without the proxy), suggesting the option they passed would send them in a circle.
      // And where a Node request was handed on, as told, but its socket has no address (a
      // Unix socket: Nitro's dev server hands its worker requests on one), saying it was.
      const given = sources.clientAddress !== undefined;
      const socket = (c.env.runtime as { incoming?: { socket?: unknown } } | null)?.incoming
        ?.socket;
      const unix = !given && typeof socket === 'object';
      const skipped = 'the per-client limits are not applied (the per-checkout one is)';
      warnOnce(
        given ? 'no-address-from-option' : unix ? 'no-address-on-socket' : 'no-address',
        given
          ? `rateLimit.clientAddress answered no address for a request, so ${skipped}: check ` +
              'what it reads is on every request (a header your proxy sets is missing when the ' +
              'app is reached without it), or pass rateLimit.clientKey'
          : unix
            ? 'the client address of a request is unknown: the Node request handed with it has ' +
              "none on its socket (a Unix socket: Nitro's dev worker, under Analog's vite dev; " +
              `the build has one), so ${skipped}`
            : `the client address of a request is unknown, so ${skipped}: hand the handler ` +
              'what toNodeListener, Bun.serve or Deno.serve pass beside the request (Elysia: ' +
              'payments(request, server); Hono: payments(c.req.raw, c.env)), or pass ' +
              'rateLimit.clientAddress or rateLimit.clientKey',
      );
      return undefined;
    }
    if (
      sources.trustedProxies === 0 &&
      sources.clientAddress === undefined &&
      request.headers.has('x-forwarded-for')
    ) {
      warnOnce(
        'proxy',
        'a request came with X-Forwarded-For but rateLimit.trustedProxies is 0: if a proxy is ' +
          'in front of the handler, every client behind it shares its address; set trustedProxies',
      );
    }
    return addressBucket(address, ipv6Prefix);
  }

  async function check(
    c: Context<HandlerEnv>,
    perClient: LimitName,
    checkoutId?: string,
  ): Promise<void> {
    const wanted: { name: LimitName; limit: RateLimit; key: string }[] = [];
    const clientLimit = limits[perClient];
    if (clientLimit !== undefined) {
      const client = await clientOf(c);
      if (client !== undefined) {
        wanted.push({ name: perClient, limit: clientLimit, key: `${perClient}:${client}` });
      }
    }
    const checkoutLimit = limits.paymentsPerCheckout;
    if (checkoutId !== undefined && checkoutLimit !== undefined) {
      wanted.push({
        name: 'paymentsPerCheckout',
        limit: checkoutLimit,
        key: `paymentsPerCheckout:${checkoutId}`,
      });
    }
    if (wanted.length === 0) return;
    const states = await hit(
      wanted.map((w) => ({ key: keyPrefix + w.key, windowMs: w.limit.windowMs })),
    );
    let over: { name: LimitName; resetInMs: number } | undefined;
    for (const [i, w] of wanted.entries()) {
      const state = states[i];
      if (state === undefined || state.hits <= w.limit.limit) continue;
      // Once per window and key: a flood is one line in the log, not one per request.
      if (state.hits === w.limit.limit + 1) {
        log({
          level: 'warn',
          message: `rate limit ${w.name} reached (${w.limit.limit} per ${w.limit.windowMs} ms)`,
          limit: w.name,
          key: w.key,
          requestId: c.get('requestId'),
        });
      }
      // The client must wait out every limit it is over.
      if (over === undefined || state.resetInMs > over.resetInMs) {
        over = { name: w.name, resetInMs: state.resetInMs };
      }
    }
    if (over === undefined) return;
    deps.refused(over.name);
    const wait = seconds(over.resetInMs);
    throw new PaymentHandlerError(
      429,
      'TOO_MANY_REQUESTS',
      `${WHAT[over.name]}; try again in ${wait} s`,
      undefined,
      { 'retry-after': String(wait) },
    );
  }

  return { check };
}
