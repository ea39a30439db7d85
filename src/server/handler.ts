/**
 * The companion handler the widget talks to: `(request: Request) => Promise<Response>`.
 * It creates checkouts with the amount the merchant's server decides, forwards
 * process requests after validating them, and confirms outcomes (return page,
 * webhook, polling) by reading the checkout from the provider itself.
 */
import { randomUUID } from 'node:crypto';
import {
  type Checkout,
  type CheckoutCreateBody,
  CheckoutCreateBodySchema,
  CheckoutProcessBodySchema,
  type CheckoutPurpose,
  describeIssue,
} from '../schemas/index.ts';
import { createProviderClient } from './client.ts';
import { PaymentHandlerError, ProviderError } from './errors.ts';
import { errorResponse, json, MAX_BODY_BYTES, readJsonBody } from './http.ts';
import { createMemoryIdempotencyStore, type IdempotencyStore } from './idempotency.ts';
import { createOutcomeReporter } from './outcome.ts';
import { toPublicCheckout, unsafeNextStepField } from './public.ts';

/** What the merchant's server decides about an order. */
export interface ResolvedCheckout {
  /** In major units, e.g. 10.5 for 10.50 EUR. */
  amount: number;
  /** ISO 4217, e.g. `EUR`. */
  currency: string;
  description?: string;
  /** The checkout_reference; unique per checkout. Default: a random UUID. */
  reference?: string;
  /** Ties the checkout (and a card saved with it) to a provider customer. */
  customerId?: string;
  purpose?: CheckoutPurpose;
  /** Whether to set `redirect_url` (3DS as a full-page redirect, APMs possible). Default true. */
  redirect?: boolean;
  /** ISO 8601; the checkout must be processed before then. */
  validUntil?: string;
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  [field: string]: unknown;
}

export interface PaymentHandlerOptions {
  /** Provider base URL (https, or http on a loopback host such as the sandbox). */
  baseUrl: string;
  /** Secret provider key. Never leaves this server except towards `baseUrl`. */
  apiKey: string;
  merchantCode: string;
  /** The merchant user receiving the payments, if the account has several. */
  payToEmail?: string;
  /** Mount path the routes are relative to. Default `/payments`. */
  basePath?: string;
  /**
   * Absolute URL of the mount as the browser and the provider reach it, e.g.
   * `https://shop.example/payments`. Checkouts get `${publicUrl}/return` as
   * redirect_url and `${publicUrl}/webhook` as return_url.
   */
  publicUrl: string;
  /**
   * Turns the browser's `order` into amount and currency. The only source of
   * the amount: nothing in a request body can change it. Throw a
   * `PaymentHandlerError` (e.g. 400) to refuse an order.
   */
  resolveCheckout(order: unknown, request: Request): ResolvedCheckout | Promise<ResolvedCheckout>;
  /** Runs once per checkout that reached PAID. */
  onPaid?(checkout: Checkout): unknown;
  /** Runs once per checkout that reached FAILED or EXPIRED. */
  onFailed?(checkout: Checkout): unknown;
  /**
   * Whether the request may use this provider customer's saved cards (list
   * them, pay with their tokens). Without it, every customer route is refused.
   */
  authorizeCustomer?(request: Request, customerId: string): boolean | Promise<boolean>;
  /** Origins allowed to create and process checkouts, e.g. `['https://shop.example']`. */
  allowedOrigins: string[];
  /** Where `/return` sends the user after a payment; `?checkout_id=` is appended. */
  successUrl: string;
  /** Where `/return` sends the user after a failed or expired payment. */
  failureUrl: string;
  /**
   * Where `/return` sends the user when the outcome is not final yet (an
   * abandoned bank page) or could not be read. Default: `failureUrl`, so the
   * user can try again. The page should confirm via `GET /checkouts/:id`.
   */
  pendingUrl?: string;
  /** Shared claim store for running hooks once across instances. Default: in memory. */
  idempotencyStore?: IdempotencyStore;
  /** Receives one entry per request and per problem; never bodies, card data or the key. */
  logger?: (entry: LogEntry) => void;
  /** Per provider call. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts for provider GETs. Default 2. */
  retries?: number;
  fetch?: typeof fetch;
  /** Default 16 KiB. */
  maxBodyBytes?: number;
}

// Ids go into provider paths and logs: keep them to URL-safe characters. `.` and `..`
// alone are refused too: as a path segment they would walk up the provider's URL.
const CHECKOUT_ID = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/;
const CUSTOMER_ID = /^(?!\.\.?$)[A-Za-z0-9._~@:+-]{1,255}$/;

function normaliseOrigin(origin: string): string {
  const url = new URL(origin);
  return url.origin;
}

/** Appends `key=value` to an absolute or site-relative URL. */
function withQuery(target: string, key: string, value: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(target);
  const url = new URL(target, 'http://relative.invalid');
  url.searchParams.set(key, value);
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`;
}

function providerErrorResponse(error: ProviderError, redact: (text: string) => string): Response {
  const body: { code: string; message: string; field?: string; retryable: boolean } = {
    code: error.errorCode,
    message: redact(error.message),
    retryable: error.retryable,
  };
  if (error.param !== undefined) body.field = error.param;
  return json(error.status >= 400 && error.status <= 599 ? error.status : 502, { error: body });
}

export function createPaymentHandler(
  options: PaymentHandlerOptions,
): (request: Request) => Promise<Response> {
  if (!options.merchantCode) throw new TypeError('merchantCode is required');
  if (typeof options.resolveCheckout !== 'function') {
    throw new TypeError(
      'resolveCheckout is required: the server, not the browser, sets the amount',
    );
  }
  if (!Array.isArray(options.allowedOrigins) || options.allowedOrigins.length === 0) {
    throw new TypeError('allowedOrigins must list the origins of the pages that show the widget');
  }
  const basePath = (options.basePath ?? '/payments').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/'))
    throw new TypeError('basePath must start with /');
  const publicUrl = new URL(options.publicUrl).href.replace(/\/+$/, '');
  const allowedOrigins = new Set(options.allowedOrigins.map(normaliseOrigin));
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const pendingUrl = options.pendingUrl ?? options.failureUrl;

  const client = createProviderClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });

  const apiKey = options.apiKey;
  // Last line of defence: no text we did not write ourselves goes out unchecked.
  const redact = (text: string) =>
    text.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text;

  function log(entry: LogEntry): void {
    if (options.logger === undefined) return;
    const safe: LogEntry = { ...entry };
    for (const [key, value] of Object.entries(safe)) {
      if (typeof value === 'string') safe[key] = redact(value);
    }
    try {
      options.logger(safe);
    } catch {
      // A broken logger must not break payments.
    }
  }

  const report = createOutcomeReporter({
    merchantCode: options.merchantCode,
    store: options.idempotencyStore ?? createMemoryIdempotencyStore(),
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    onHookError(hook, checkoutId, error) {
      log({
        level: 'error',
        message: `${hook} threw; it will run again on the next report of this checkout`,
        hook,
        checkoutId,
        error: error instanceof Error ? error.message : String(error),
      });
    },
  });

  function checkOrigin(request: Request): void {
    const origin = request.headers.get('origin');
    // Browsers send Origin on every POST/PUT; its absence means no page asked for this.
    if (origin === null || !allowedOrigins.has(origin)) {
      throw new PaymentHandlerError(
        403,
        'FORBIDDEN_ORIGIN',
        'This origin may not call the payment handler',
        'origin',
      );
    }
  }

  function checkoutIdFrom(raw: string | null | undefined, field: string): string {
    if (raw === null || raw === undefined || raw === '') {
      throw new PaymentHandlerError(400, 'MISSING', `${field} is required`, field);
    }
    if (!CHECKOUT_ID.test(raw)) {
      throw new PaymentHandlerError(400, 'INVALID', `${field} is not a checkout id`, field);
    }
    return raw;
  }

  async function requireCustomer(request: Request, customerId: string, field: string) {
    if (!CUSTOMER_ID.test(customerId)) {
      throw new PaymentHandlerError(400, 'INVALID', `${field} is not a customer id`, field);
    }
    const allowed =
      options.authorizeCustomer !== undefined &&
      (await options.authorizeCustomer(request, customerId)) === true;
    if (!allowed) {
      throw new PaymentHandlerError(403, 'FORBIDDEN', 'This customer is not yours to use', field);
    }
  }

  async function createCheckout(request: Request): Promise<Response> {
    checkOrigin(request);
    const body = await readJsonBody(request, maxBodyBytes);
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('order' in body)) {
      throw new PaymentHandlerError(400, 'MISSING', 'order is required', 'order');
    }
    // Everything else in the body (amount, currency, ...) is ignored on purpose.
    const resolved = await options.resolveCheckout((body as { order: unknown }).order, request);
    const redirect = resolved.redirect ?? true;
    const candidate: CheckoutCreateBody = {
      checkout_reference: resolved.reference ?? randomUUID(),
      amount: resolved.amount,
      currency: resolved.currency,
      merchant_code: options.merchantCode,
      return_url: `${publicUrl}/webhook`,
      ...(redirect ? { redirect_url: `${publicUrl}/return` } : {}),
      ...(options.payToEmail === undefined ? {} : { pay_to_email: options.payToEmail }),
      ...(resolved.description === undefined ? {} : { description: resolved.description }),
      ...(resolved.customerId === undefined ? {} : { customer_id: resolved.customerId }),
      ...(resolved.purpose === undefined ? {} : { purpose: resolved.purpose }),
      ...(resolved.validUntil === undefined ? {} : { valid_until: resolved.validUntil }),
    };
    const parsed = CheckoutCreateBodySchema.safeParse(candidate);
    if (!parsed.success) {
      // The merchant's resolveCheckout returned something unusable: our bug, not the user's.
      const issue = describeIssue(parsed.error, candidate);
      log({
        level: 'error',
        message: `resolveCheckout returned an invalid checkout: ${issue.message}`,
      });
      return errorResponse(500, 'INVALID_RESOLVED_CHECKOUT', 'The order could not be priced');
    }
    const checkout = await client.checkouts.create(parsed.data);
    log({ level: 'info', message: 'checkout created', checkoutId: checkout.id ?? undefined });
    return json(201, toPublicCheckout(checkout));
  }

  async function getCheckout(id: string): Promise<Response> {
    const checkout = await client.checkouts.get(id);
    // The widget polls here: a final status seen here counts as a confirmation.
    await report(checkout);
    return json(200, toPublicCheckout(checkout));
  }

  async function processCheckout(request: Request, id: string): Promise<Response> {
    checkOrigin(request);
    const raw = await readJsonBody(request, maxBodyBytes);
    const parsed = CheckoutProcessBodySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = describeIssue(parsed.error, raw);
      return errorResponse(400, issue.code, issue.message, issue.param);
    }
    const body = parsed.data;
    if (body.token !== undefined && body.customer_id !== undefined) {
      // A token is a saved card: only its owner's session may charge it.
      await requireCustomer(request, body.customer_id, 'customer_id');
    }
    const result = await client.checkouts.process(id, body);
    if (result.kind === 'next_step') {
      const unsafe = unsafeNextStepField(result.next_step);
      if (unsafe !== undefined) {
        log({
          level: 'error',
          message: 'the provider sent an unsafe next step URL',
          checkoutId: id,
          field: unsafe,
        });
        return errorResponse(
          502,
          'UNSAFE_NEXT_STEP',
          'The payment provider sent an unsafe redirect',
          unsafe,
        );
      }
      log({ level: 'info', message: 'checkout needs user action', checkoutId: id });
      return json(202, { next_step: result.next_step });
    }
    await report(result.checkout);
    log({
      level: 'info',
      message: result.recovered
        ? 'checkout processed (read back after a lost answer)'
        : 'checkout processed',
      checkoutId: id,
      checkoutStatus: result.checkout.status ?? undefined,
    });
    return json(200, toPublicCheckout(result.checkout));
  }

  async function paymentMethods(url: URL): Promise<Response> {
    const filter: { amount?: number; currency?: string } = {};
    const amount = url.searchParams.get('amount');
    if (amount !== null && amount !== '') {
      if (!/^\d{1,9}(\.\d{1,2})?$/.test(amount)) {
        throw new PaymentHandlerError(
          400,
          'INVALID',
          'amount must be a positive decimal number',
          'amount',
        );
      }
      filter.amount = Number(amount);
    }
    const currency = url.searchParams.get('currency');
    if (currency !== null && currency !== '') {
      if (!/^[A-Z]{3}$/.test(currency)) {
        throw new PaymentHandlerError(
          400,
          'INVALID',
          'currency must be a three-letter ISO 4217 code',
          'currency',
        );
      }
      filter.currency = currency;
    }
    return json(200, await client.checkouts.paymentMethods(options.merchantCode, filter));
  }

  async function paymentInstruments(request: Request, customerId: string): Promise<Response> {
    await requireCustomer(request, customerId, 'customerId');
    const instruments = await client.customers.listPaymentInstruments(customerId);
    // A deactivated card cannot pay: offering it would only produce a decline.
    return json(
      200,
      instruments.filter((instrument) => instrument.active !== false),
    );
  }

  async function returnPage(url: URL): Promise<Response> {
    const id = checkoutIdFrom(url.searchParams.get('checkout_id'), 'checkout_id');
    let target = pendingUrl;
    try {
      const checkout = await client.checkouts.get(id);
      await report(checkout);
      if (checkout.status === 'PAID') target = options.successUrl;
      else if (checkout.status === 'FAILED' || checkout.status === 'EXPIRED')
        target = options.failureUrl;
    } catch (error) {
      // The user is mid-navigation: a JSON error page would strand them. The
      // pending page confirms again; the webhook settles the hooks.
      if (!(error instanceof ProviderError)) throw error;
      log({
        level: 'warn',
        message: `return: checkout could not be read (${error.errorCode})`,
        checkoutId: id,
      });
    }
    return new Response(null, {
      status: 303,
      headers: { location: withQuery(target, 'checkout_id', id), 'cache-control': 'no-store' },
    });
  }

  async function webhook(request: Request): Promise<Response> {
    // The provider calls from its servers (no Origin); a browser that posts
    // here from a foreign page is refused like on every other POST.
    if (request.headers.has('origin')) checkOrigin(request);
    const body = await readJsonBody(request, maxBodyBytes);
    const record =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : undefined;
    if (record === undefined)
      throw new PaymentHandlerError(400, 'INVALID', 'body must be a JSON object', 'body');
    const eventType = record.event_type;
    if (eventType !== undefined && eventType !== 'CHECKOUT_STATUS_CHANGED') {
      // Acknowledged so the provider stops retrying an event we do not handle.
      return new Response(null, { status: 204 });
    }
    if (record.id != null && typeof record.id !== 'string') {
      throw new PaymentHandlerError(400, 'INVALID', 'id must be a string', 'id');
    }
    const id = checkoutIdFrom(record.id, 'id');
    // The body is only a hint: the status comes from the provider itself.
    const checkout = await client.checkouts.get(id);
    const outcome = await report(checkout);
    if (outcome === 'failed') {
      // A non-2xx makes the provider deliver again, which retries the hook.
      return errorResponse(500, 'HOOK_FAILED', 'The outcome hook failed; deliver again later');
    }
    return new Response(null, { status: 204 });
  }

  function preflight(request: Request): Response {
    const origin = request.headers.get('origin');
    if (origin === null || !allowedOrigins.has(origin)) {
      return errorResponse(
        403,
        'FORBIDDEN_ORIGIN',
        'This origin may not call the payment handler',
        'origin',
      );
    }
    return new Response(null, {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, PUT',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'origin',
      },
    });
  }

  async function route(request: Request, url: URL, path: string[]): Promise<Response> {
    const method = request.method;
    const notAllowed = (allow: string) =>
      errorResponse(405, 'METHOD_NOT_ALLOWED', `Use ${allow}`, undefined, { allow });
    if (method === 'OPTIONS') return preflight(request);
    const [first, second, third, ...more] = path;
    if (first === 'checkouts' && second === undefined) {
      return method === 'POST' ? createCheckout(request) : notAllowed('POST');
    }
    if (first === 'checkouts' && second !== undefined && third === undefined) {
      const id = checkoutIdFrom(second, 'id');
      if (method === 'GET') return getCheckout(id);
      if (method === 'PUT') return processCheckout(request, id);
      return notAllowed('GET, PUT');
    }
    if (first === 'payment-methods' && second === undefined) {
      return method === 'GET' ? paymentMethods(url) : notAllowed('GET');
    }
    if (
      first === 'customers' &&
      second !== undefined &&
      third === 'payment-instruments' &&
      more.length === 0
    ) {
      return method === 'GET' ? paymentInstruments(request, second) : notAllowed('GET');
    }
    if (first === 'return' && second === undefined) {
      return method === 'GET' ? returnPage(url) : notAllowed('GET');
    }
    if (first === 'webhook' && second === undefined) {
      return method === 'POST' ? webhook(request) : notAllowed('POST');
    }
    return errorResponse(404, 'NOT_FOUND', 'No such payment route');
  }

  function splitPath(pathname: string): string[] | undefined {
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return undefined;
    const rest = pathname
      .slice(basePath.length)
      .split('/')
      .filter((part) => part !== '');
    try {
      return rest.map((part) => decodeURIComponent(part));
    } catch {
      return undefined;
    }
  }

  return async function handle(request: Request): Promise<Response> {
    const started = Date.now();
    const url = new URL(request.url);
    const path = splitPath(url.pathname);
    let response: Response;
    try {
      response =
        path === undefined
          ? errorResponse(404, 'NOT_FOUND', 'No such payment route')
          : await route(request, url, path);
    } catch (error) {
      if (error instanceof PaymentHandlerError) {
        response = errorResponse(
          error.status,
          error.code,
          redact(error.message),
          error.field,
          error.headers,
        );
      } else if (error instanceof ProviderError) {
        log({
          level: error.status >= 500 ? 'error' : 'warn',
          message: `provider: ${error.message}`,
          code: error.errorCode,
          providerStatus: error.status,
        });
        response = providerErrorResponse(error, redact);
      } else {
        log({
          level: 'error',
          message: `unexpected: ${error instanceof Error ? error.message : String(error)}`,
        });
        response = errorResponse(500, 'INTERNAL', 'Internal error');
      }
    }
    const origin = request.headers.get('origin');
    if (
      origin !== null &&
      allowedOrigins.has(origin) &&
      !response.headers.has('access-control-allow-origin')
    ) {
      response.headers.set('access-control-allow-origin', origin);
      response.headers.append('vary', 'origin');
    }
    log({
      level: 'info',
      message: 'request',
      method: request.method,
      // The route pattern, not the path: paths carry customer ids.
      route:
        path === undefined
          ? '(outside basePath)'
          : `/${path.map((part, i) => (i === 1 ? ':id' : part)).join('/')}`,
      status: response.status,
      durationMs: Date.now() - started,
    });
    return response;
  };
}
