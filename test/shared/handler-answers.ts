/**
 * Every answer the companion handler can give the widget, route by route, as zod schemas:
 * what a hand-written answer in a browser test is checked against (so the widget is never
 * tested against an answer the handler cannot give), and what the handler's own answers are
 * checked against in the node suite (test/node/server/answers.test.ts, which also makes the
 * handler give each error code listed here on its route: so these schemas never drift from it,
 * either way).
 *
 * Built from the handler's parts: the provider's checkout without the two fields the handler
 * drops (src/server/provider/public.ts), with the fields every checkout the provider answers
 * has; the open step it answers a found pending checkout with (src/server/routes/answer.ts);
 * its error body, each route's codes and each code's status (src/domain/errors.ts, the routes
 * and middleware under src/server/); and the `Retry-After` every 429 carries
 * (src/server/errors.ts). Objects are strict: a field the handler never sends is refused,
 * not ignored.
 */
import * as z from 'zod/mini';
import { HANDLER_ERRORS, type HandlerErrorCode } from '../../src/domain/errors.ts';
import {
  CheckoutSchema,
  CheckoutStatusSchema,
  NextStepSchema,
  PAYMENT_METHOD_IDS,
  PaymentInstrumentListSchema,
  PaymentMethodsResponseSchema,
} from '../../src/schemas/index.ts';

const { pay_to_email: _email, return_url: _webhook, ...publicFields } = CheckoutSchema.shape;

/**
 * What every checkout the provider answers carries (the handler creates each one with a
 * reference, an amount, a currency and the merchant's code; the provider adds its id and
 * status), whatever else it may.
 */
const ALWAYS = {
  id: z.string().check(z.minLength(1)),
  checkout_reference: z.string(),
  amount: z.number(),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  merchant_code: z.string(),
  status: CheckoutStatusSchema,
};

/** A checkout as the handler answers it: `toPublicCheckout` of the provider's. */
const PublicCheckoutSchema = z.strictObject({ ...publicFields, ...ALWAYS });

/** A checkout the handler just made (`201`): nothing has happened to it yet. */
const NewCheckoutSchema = z.strictObject({
  ...publicFields,
  ...ALWAYS,
  status: z.literal('PENDING'),
});

/**
 * A checkout some route found (`GET /checkouts/:id`, and `POST /checkouts` or `/retry`
 * answering the basket's checkout with 200): a pending one may carry its open step, and the
 * method it is for (src/server/routes/answer.ts); a final one never does (its step is over).
 */
const FoundCheckoutSchema = z
  .strictObject({
    ...publicFields,
    ...ALWAYS,
    next_step: z.optional(NextStepSchema),
    payment_type: z.optional(z.enum(PAYMENT_METHOD_IDS)),
  })
  .check(
    z.refine(
      (c) => c.status === 'PENDING' || (c.next_step === undefined && c.payment_type === undefined),
      { message: 'only a pending checkout carries an open step', path: ['next_step'] },
    ),
  );

const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(HANDLER_ERRORS) as [HandlerErrorCode, ...HandlerErrorCode[]]),
    message: z.string().check(z.minLength(1)),
    retryable: z.boolean(),
    field: z.optional(z.string()),
  }),
});

/** A bug in the handler, or a merchant's hook that threw: a 500 that says nothing more. */
const EVERY_ROUTE: HandlerErrorCode[] = ['INTERNAL'];
/** The provider as the handler met it, on every route that calls it (src/server/errors.ts). */
const PROVIDER: HandlerErrorCode[] = [
  'NOT_AUTHORIZED',
  'FORBIDDEN',
  'PROVIDER_ERROR',
  'PROVIDER_UNREACHABLE',
  'PROVIDER_TIMEOUT',
  'INVALID_PROVIDER_RESPONSE',
];
/** A JSON body: its type, size and syntax, checked before the route (routes/context.ts). */
const BODY: HandlerErrorCode[] = [
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'INVALID_JSON',
  'MISSING',
];
/** A call a page makes, to create or pay: from an allowed origin only (middleware/origin.ts). */
const FROM_PAGE: HandlerErrorCode[] = ['FORBIDDEN_ORIGIN'];

/** One route: its successful answers (status and body) and the error codes it can answer. */
export interface Route {
  method: string;
  /** How the node test and a failure name it. */
  name: string;
  path: RegExp;
  answers: Record<number, z.ZodMiniType>;
  errors: readonly HandlerErrorCode[];
}

export const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    name: 'POST /checkouts',
    path: /^\/checkouts$/,
    answers: { 200: FoundCheckoutSchema, 201: NewCheckoutSchema },
    errors: [
      ...FROM_PAGE,
      ...BODY,
      // The merchant's resolveCheckout refusing the order (the README's example).
      'INVALID',
      'TOO_MANY_REQUESTS',
      'INVALID_RESOLVED_CHECKOUT',
      // Another request kept changing the basket's checkout.
      'CONFLICT',
      ...PROVIDER,
      ...EVERY_ROUTE,
    ],
  },
  {
    method: 'POST',
    name: 'POST /checkouts/:id/retry',
    path: /^\/checkouts\/[^/]+\/retry$/,
    answers: { 200: FoundCheckoutSchema, 201: NewCheckoutSchema },
    errors: [
      ...FROM_PAGE,
      'INVALID',
      'NOT_FOUND',
      // The checkout can still be paid, or the basket kept changing.
      'CONFLICT',
      'TOO_MANY_REQUESTS',
      ...PROVIDER,
      ...EVERY_ROUTE,
    ],
  },
  {
    method: 'GET',
    name: 'GET /checkouts/:id',
    path: /^\/checkouts\/[^/]+$/,
    answers: { 200: FoundCheckoutSchema },
    errors: ['INVALID', 'NOT_FOUND', ...PROVIDER, ...EVERY_ROUTE],
  },
  {
    method: 'PUT',
    name: 'PUT /checkouts/:id',
    path: /^\/checkouts\/[^/]+$/,
    answers: { 200: PublicCheckoutSchema, 202: z.strictObject({ next_step: NextStepSchema }) },
    errors: [
      ...FROM_PAGE,
      ...BODY,
      // A field of the payment (or the id), named (a saved card of another customer is
      // FORBIDDEN, among the provider's codes).
      'INVALID',
      'TOO_MANY_REQUESTS',
      'NOT_FOUND',
      'CHECKOUT_PROCESSED',
      // The provider's refusal of a deactivated or lapsed checkout, passed on.
      'CONFLICT',
      'PROCESS_OUTCOME_UNKNOWN',
      'UNSAFE_NEXT_STEP',
      ...PROVIDER,
      ...EVERY_ROUTE,
    ],
  },
  {
    method: 'GET',
    name: 'GET /payment-methods',
    path: /^\/payment-methods$/,
    answers: { 200: PaymentMethodsResponseSchema },
    errors: ['INVALID', ...PROVIDER, ...EVERY_ROUTE],
  },
  {
    method: 'GET',
    name: 'GET /customers/:id/payment-instruments',
    path: /^\/customers\/[^/]+\/payment-instruments$/,
    answers: { 200: PaymentInstrumentListSchema },
    // FORBIDDEN (authorizeCustomer said no) is among the provider's codes.
    errors: ['INVALID', 'NOT_FOUND', ...PROVIDER, ...EVERY_ROUTE],
  },
];

/**
 * The statuses each code is answered with: its usual one, except where the provider's status
 * is kept (a provider error keeps the provider's 5xx or 429; an outcome left unknown, the
 * status of the attempt that was lost: 502 or 504).
 */
function statusesOf(code: HandlerErrorCode): (status: number) => boolean {
  if (code === 'PROVIDER_ERROR') return (s) => s === 429 || (s >= 500 && s <= 599);
  if (code === 'PROCESS_OUTCOME_UNKNOWN') return (s) => s >= 500 && s <= 599;
  return (s) => s === HANDLER_ERRORS[code].status;
}

/** A header's value from either shape a test has at hand. */
function header(headers: HeadersInit | undefined, name: string): string | null {
  return new Headers(headers).get(name);
}

/** Where no route matches: a 404 (unknown path), or a 405 (a known path, another method). */
function unrouted(method: string, path: string, status: number, code: string): string | undefined {
  const known = ROUTES.some((r) => r.path.test(path));
  if (known && status === 405 && code === 'METHOD_NOT_ALLOWED') return undefined;
  if (!known && status === 404 && code === 'NOT_FOUND') return undefined;
  return `${method} ${path} ${status}: the handler has no such route (${
    known ? '405 METHOD_NOT_ALLOWED' : '404 NOT_FOUND'
  })`;
}

/**
 * Why `status`, `body` and `headers` are not an answer the handler gives to `method path`
 * (the path under the handler's base path), or undefined when they are.
 */
export function notAHandlerAnswer(
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers?: HeadersInit,
): string | undefined {
  const where = `${method} ${path} ${status}`;
  const route = ROUTES.find((r) => r.method === method && r.path.test(path));
  if (status >= 400) {
    const parsed = ErrorBodySchema.safeParse(body);
    if (!parsed.success) return `${where}: not the handler's error body: ${issues(parsed.error)}`;
    const { code } = parsed.data.error;
    if (!route) return unrouted(method, path, status, code);
    if (!route.errors.includes(code)) {
      return `${where}: ${route.name} never answers ${code} (it answers ${route.errors.join(', ')})`;
    }
    if (!statusesOf(code)(status)) {
      return `${where}: the handler answers ${code} with ${HANDLER_ERRORS[code].status}`;
    }
    const wait = header(headers, 'retry-after');
    if (status === 429 && !(wait !== null && /^[1-9]\d*$/.test(wait))) {
      return `${where}: a 429 always carries Retry-After in whole seconds (got ${wait})`;
    }
    return undefined;
  }
  if (!route) return `${where}: the handler has no such route`;
  const schema = route.answers[status];
  if (!schema)
    return `${where}: the handler answers this route with ${Object.keys(route.answers).join(' or ')}`;
  const parsed = schema.safeParse(body);
  return parsed.success ? undefined : `${where}: ${issues(parsed.error)}`;
}

function issues(error: z.core.$ZodError): string {
  // zod/mini carries no messages of its own: each issue is named by its code, its path, and
  // what it was about (the keys not allowed, the values expected), or the message a check
  // gave it.
  return error.issues
    .map((i) => {
      const about =
        'keys' in i
          ? ` ${i.keys.join(', ')}`
          : 'values' in i
            ? ` not one of ${i.values.join(', ')}`
            : i.code === 'custom'
              ? ` ${i.message}`
              : '';
      return `${i.path.join('.') || '(body)'}: ${i.code}${about}`;
    })
    .join('; ');
}
