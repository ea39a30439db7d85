/**
 * The `rateLimit` option: its shape, its defaults, and its resolver, which checks every limit
 * and source by name at start and gives guards/rate-limit.ts the whole, defaulted set.
 */
import { group, optionalFunction, refuse, wholeNumber } from './check.ts';

/** At most `limit` requests per window of `windowMs` milliseconds. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /**
   * New checkouts per client (`POST /checkouts` and `/retry` that make one; an answer that
   * finds the basket's checkout counts nothing). Default 30 per 10 minutes. `false` switches it off; a
   * partial value keeps the default of the other half.
   */
  checkoutsPerClient?: Partial<RateLimit> | false;
  /** `PUT /checkouts/:id` (payment attempts) per client. Default 60 per 10 minutes. */
  paymentsPerClient?: Partial<RateLimit> | false;
  /** `PUT /checkouts/:id` per checkout, whoever sends them. Default 5 per hour. */
  paymentsPerCheckout?: Partial<RateLimit> | false;
  /**
   * `POST /reports` (the browsers' violation reports from the payment pages) per client.
   * Default 100 per 10 minutes: a page's violations, many times over.
   */
  reportsPerClient?: Partial<RateLimit> | false;
  /**
   * How many proxies in front of the handler append to `X-Forwarded-For` (a load balancer,
   * a CDN): the client is the address that many hops back. Default 0: the connecting
   * address, and the header is ignored (anyone can write it). Set it to exactly the number
   * of your proxies; one too many lets clients choose their address.
   */
  trustedProxies?: number;
  /**
   * The client's address where the handler cannot read it from the runtime (Workers, Next.js,
   * a proxy with a header of its own): `(request) => request.headers.get('cf-connecting-ip')`.
   * `env` is the runtime's second argument to the handler. Replaces `trustedProxies`.
   */
  clientAddress?(request: Request, env: unknown): string | undefined;
  /**
   * The client's key in place of its address: a session or a user id, say. Undefined counts
   * the request by its address as usual (so a visitor without a session cannot escape).
   */
  clientKey?(
    request: Request,
    address: string | undefined,
  ): string | undefined | Promise<string | undefined>;
  /** IPv6 clients are counted by their first this many bits. Default 64; 128 counts each address. */
  ipv6Prefix?: number;
}

const MINUTE = 60_000;

/**
 * The defaults. A shopper who mistypes and retries stays far below them, and so do a few
 * shoppers behind one address (an office, a carrier's NAT); a bot that tests cards is held
 * to a few an hour per checkout and a few hundred an hour per address, where it would try
 * thousands. Payments per client go higher than creations: a shop whose pages create the
 * checkouts on the server (`createCheckout`, not counted here) sees every shopper behind one
 * address only at payment, so that limit carries the whole traffic of an office or a NAT.
 */
export const RATE_LIMIT_DEFAULTS = {
  checkoutsPerClient: { limit: 30, windowMs: 10 * MINUTE },
  paymentsPerClient: { limit: 60, windowMs: 10 * MINUTE },
  paymentsPerCheckout: { limit: 5, windowMs: 60 * MINUTE },
  reportsPerClient: { limit: 100, windowMs: 10 * MINUTE },
} as const satisfies Record<string, RateLimit>;

export type LimitName = keyof typeof RATE_LIMIT_DEFAULTS;

/** `rateLimit` resolved: each limit set or switched off, and where a client's identity comes from. */
export interface ResolvedRateLimit {
  limits: Record<LimitName, RateLimit | undefined>;
  clientAddress: RateLimitOptions['clientAddress'];
  trustedProxies: number;
  clientKey: RateLimitOptions['clientKey'];
  ipv6Prefix: number;
}

const LIMITS = Object.keys(RATE_LIMIT_DEFAULTS) as LimitName[];

function resolveLimit(
  name: LimitName,
  value: Partial<RateLimit> | false | undefined,
): RateLimit | undefined {
  if (value === false) return undefined;
  const path = `rateLimit.${name}`;
  const given = group(path, value, ['limit', 'windowMs']);
  const defaults = RATE_LIMIT_DEFAULTS[name];
  const limit = given?.limit ?? defaults.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    refuse(`${path}.limit`, 'a positive whole number', limit);
  }
  const windowMs = given?.windowMs ?? defaults.windowMs;
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs < 1) {
    refuse(`${path}.windowMs`, 'a positive number of milliseconds', windowMs);
  }
  return { limit, windowMs: Math.ceil(windowMs) };
}

/** `false` switches every limit off; undefined is every default. */
export function resolveRateLimit(
  value: RateLimitOptions | false | undefined,
): ResolvedRateLimit | false {
  if (value === false) return false;
  const options = group('rateLimit', value, [
    ...LIMITS,
    'trustedProxies',
    'clientAddress',
    'clientKey',
    'ipv6Prefix',
  ]);
  const limits = {} as Record<LimitName, RateLimit | undefined>;
  for (const name of LIMITS) limits[name] = resolveLimit(name, options?.[name]);
  return {
    limits,
    clientAddress: optionalFunction('rateLimit.clientAddress', options?.clientAddress),
    trustedProxies: wholeNumber('rateLimit.trustedProxies', options?.trustedProxies, 0, 0, 100),
    clientKey: optionalFunction('rateLimit.clientKey', options?.clientKey),
    ipv6Prefix: wholeNumber('rateLimit.ipv6Prefix', options?.ipv6Prefix, 64, 0, 128),
  };
}
