/**
 * The card-testing limits (guards/rate-limit.ts) mounted on the routes that call the provider
 * on a shopper's behalf, after the checks that answer 400 or 403 and before the route calls
 * anything: a refused request is a 429 with `Retry-After` that costs the merchant no provider
 * call, and a malformed one is never counted.
 */
import type { MiddlewareHandler } from 'hono';
import type { RateLimiter } from '../guards/rate-limit.ts';
import type { HandlerEnv } from '../types.ts';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** The client's limit this route counts against. */
  perClient: 'checkoutsPerClient' | 'paymentsPerClient' | 'reportsPerClient';
  /** Also the limit per checkout, on the route's checked `:id` (`c.var.checkoutId`). */
  perCheckout?: boolean;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<HandlerEnv> {
  const { limiter, perClient, perCheckout = false } = options;
  return async function rateLimit(c, next) {
    await limiter.check(c, perClient, perCheckout ? c.get('checkoutId') : undefined);
    await next();
  };
}
