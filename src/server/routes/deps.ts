/**
 * What every route module of the handler is built from, and the pieces they share: the
 * id rules, the customer check, and the JSON body (content type, size cap, parse).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { limitBody, readJsonBody, requireJsonType } from '../../http/body.ts';
import type { ProviderClient } from '../client.ts';
import { PaymentHandlerError } from '../errors.ts';
import type { HandlerConfig } from '../options.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { OpenCheckouts } from '../reconcile.ts';
import type { Settler } from '../settle.ts';
import type { CallContext } from '../transport.ts';

export interface RouteDeps {
  config: HandlerConfig;
  client: ProviderClient;
  /** Runs onPaid/onFailed once per checkout for a final status (see settle.ts). */
  settle: Settler;
  /** The checkouts reconciliation watches (see reconcile.ts). */
  open: OpenCheckouts;
  /** The limits checked before a checkout is created or paid (see rate-limit.ts). */
  limits: RateLimiter;
}

/** What the handler's middleware leaves on every request's context. */
export interface HandlerEnv {
  Variables: {
    /** This request's `X-Request-Id`, also sent to the provider with every call it makes. */
    requestId: string;
  };
}

/** The provider calls of a request carry its id. */
export function callContext(c: Context<HandlerEnv>): CallContext {
  return { requestId: c.get('requestId') };
}

/** Remembers a checkout for reconciliation; a store that fails here must not fail the payment. */
export async function track(deps: RouteDeps, id: string, soon: boolean): Promise<void> {
  try {
    await deps.open.track(id, soon);
  } catch (error) {
    deps.config.log({
      level: 'warn',
      message: `reconcile: could not track checkout ${id}: ${String(error)}`,
      checkoutId: id,
    });
  }
}

// Ids go into provider paths and logs: keep them to URL-safe characters. `.` and `..`
// alone are refused too: as a path segment they would walk up the provider's URL.
const CHECKOUT_ID = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/;
const CUSTOMER_ID = /^(?!\.\.?$)[A-Za-z0-9._~@:+-]{1,255}$/;

export function checkoutIdFrom(raw: string | null | undefined, field: string): string {
  if (raw === null || raw === undefined || raw === '') {
    throw new PaymentHandlerError(400, 'MISSING', `${field} is required`, field);
  }
  if (!CHECKOUT_ID.test(raw)) {
    throw new PaymentHandlerError(400, 'INVALID', `${field} is not a checkout id`, field);
  }
  return raw;
}

/** Refuses unless `authorizeCustomer` lets this request use the customer's saved cards. */
export async function requireCustomer(
  deps: RouteDeps,
  request: Request,
  customerId: string,
  field: string,
): Promise<void> {
  if (!CUSTOMER_ID.test(customerId)) {
    throw new PaymentHandlerError(400, 'INVALID', `${field} is not a customer id`, field);
  }
  const authorize = deps.config.options.authorizeCustomer;
  const allowed = authorize !== undefined && (await authorize(request, customerId)) === true;
  if (!allowed) {
    throw new PaymentHandlerError(403, 'FORBIDDEN', 'This customer is not yours to use', field);
  }
}

/** Content type (415), then size (413), checked before a route reads the body. */
export function jsonBody(deps: RouteDeps): MiddlewareHandler[] {
  return [requireJsonType, limitBody(deps.config.maxBodyBytes)];
}

/** The parsed JSON body; empty or broken is a 400 naming `body`. */
export async function readJson(request: Request): Promise<unknown> {
  const body = await readJsonBody(request);
  if (body.kind === 'json') return body.value;
  if (body.kind === 'empty') {
    throw new PaymentHandlerError(400, 'MISSING', 'The request body is empty', 'body');
  }
  throw new PaymentHandlerError(400, 'INVALID_JSON', body.message, 'body');
}
