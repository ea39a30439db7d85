/**
 * Every answer the companion handler can give the widget, route by route, as zod schemas:
 * what a hand-written answer in a browser test is checked against (so the widget is never
 * tested against an answer the handler cannot give), and what the handler's own answers are
 * checked against in the node suite (so these schemas never drift from it).
 *
 * Built from the handler's parts: the provider's checkout without the two fields the handler
 * drops (src/server/routes/public.ts), the open step it answers a found checkout with
 * (src/server/routes/answer.ts), and its error body with each code's usual status (src/domain/errors.ts).
 * Objects are strict: a field the handler never sends is refused, not ignored.
 */
import * as z from 'zod/mini';
import { PAYMENT_METHOD_IDS } from '../../src/domain/checkout.ts';
import { HANDLER_ERRORS, type HandlerErrorCode } from '../../src/domain/errors.ts';
import {
  CheckoutSchema,
  NextStepSchema,
  PaymentInstrumentListSchema,
  PaymentMethodsResponseSchema,
} from '../../src/schemas/index.ts';

const { pay_to_email: _email, return_url: _webhook, ...publicFields } = CheckoutSchema.shape;

/** A checkout as the handler answers it: `toPublicCheckout` of the provider's. */
const PublicCheckoutSchema = z.strictObject(publicFields);

/**
 * A checkout some route found (`GET /checkouts/:id`, and `POST /checkouts` or `/retry`
 * answering the basket's checkout with 200): a pending one may carry its open step, and the
 * method it is for (src/server/routes/answer.ts).
 */
const FoundCheckoutSchema = z.strictObject({
  ...publicFields,
  next_step: z.optional(NextStepSchema),
  payment_type: z.optional(z.enum(PAYMENT_METHOD_IDS)),
});

const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(HANDLER_ERRORS) as [HandlerErrorCode, ...HandlerErrorCode[]]),
    message: z.string(),
    retryable: z.boolean(),
    field: z.optional(z.string()),
  }),
});

/** One route's successful answers: status, and the body's schema. */
type Answers = Record<number, z.ZodMiniType>;

const ROUTES: { method: string; path: RegExp; answers: Answers }[] = [
  {
    method: 'POST',
    path: /^\/checkouts$/,
    answers: { 200: FoundCheckoutSchema, 201: PublicCheckoutSchema },
  },
  {
    method: 'POST',
    path: /^\/checkouts\/[^/]+\/retry$/,
    answers: { 200: FoundCheckoutSchema, 201: PublicCheckoutSchema },
  },
  { method: 'GET', path: /^\/checkouts\/[^/]+$/, answers: { 200: FoundCheckoutSchema } },
  {
    method: 'PUT',
    path: /^\/checkouts\/[^/]+$/,
    answers: { 200: PublicCheckoutSchema, 202: z.strictObject({ next_step: NextStepSchema }) },
  },
  { method: 'GET', path: /^\/payment-methods$/, answers: { 200: PaymentMethodsResponseSchema } },
  {
    method: 'GET',
    path: /^\/customers\/[^/]+\/payment-instruments$/,
    answers: { 200: PaymentInstrumentListSchema },
  },
];

/**
 * Why `status` and `body` are not an answer the handler gives to `method path` (the path
 * under the handler's base path), or undefined when they are.
 */
export function notAHandlerAnswer(
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | undefined {
  const where = `${method} ${path} ${status}`;
  if (status >= 400) {
    const parsed = ErrorBodySchema.safeParse(body);
    if (!parsed.success) return `${where}: not the handler's error body: ${issues(parsed.error)}`;
    const usual = HANDLER_ERRORS[parsed.data.error.code].status;
    return usual === status
      ? undefined
      : `${where}: the handler answers ${parsed.data.error.code} with ${usual}`;
  }
  const route = ROUTES.find((r) => r.method === method && r.path.test(path));
  if (!route) return `${where}: the handler has no such route`;
  const schema = route.answers[status];
  if (!schema)
    return `${where}: the handler answers this route with ${Object.keys(route.answers).join(' or ')}`;
  const parsed = schema.safeParse(body);
  return parsed.success ? undefined : `${where}: ${issues(parsed.error)}`;
}

function issues(error: z.core.$ZodError): string {
  // zod/mini carries no messages of its own: each issue is named by its code, its path, and
  // what it was about (the keys not allowed, the values expected).
  return error.issues
    .map((i) => {
      const about =
        'keys' in i
          ? ` ${i.keys.join(', ')}`
          : 'values' in i
            ? ` not one of ${i.values.join(', ')}`
            : '';
      return `${i.path.join('.') || '(body)'}: ${i.code}${about}`;
    })
    .join('; ');
}
