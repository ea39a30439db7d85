/**
 * In-person payments on a card reader: the page at `/in-person` and the small JSON API it
 * calls. The merchant picks a paired reader, starts a checkout for an amount, may terminate
 * it, and sees the result the provider POSTs to `/in-person/webhook`.
 *
 *   GET  /in-person                                 the page (no inline script; strict CSP)
 *   GET  /in-person/api/readers                     readers, through the provider client
 *   POST /in-person/api/readers/:id/checkout        { amount: "12.50" } -> 201 { payment }
 *   POST /in-person/api/readers/:id/terminate       202 { payment? }
 *   GET  /in-person/api/payments/:id                the payment as the webhook left it
 *   POST /in-person/webhook                         the reader result (the checkout's return_url)
 * Sandbox only (the provider has no such thing; these drive the sandbox's simulated device):
 *   POST /in-person/api/simulator/readers           switch on a device and pair it
 *   POST /in-person/api/simulator/readers/:id/:action  present-card | enter-pin | offline | online
 *
 * The key stays here: the page sends reader ids and an amount, never a key or a device
 * control URL. JSON answers, error bodies and the body cap are the shop's own (../http.ts).
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { type ReaderCheckoutBody, ReaderCheckoutStatusChangeSchema } from 'payment-widget/schemas';
import { type ProviderClient, ProviderError } from 'payment-widget/server';
import * as z from 'zod/mini';
import {
  empty,
  errorJson,
  HttpError,
  json,
  limitBody,
  methodNotAllowedJson,
  readJsonBody,
  requireJsonType,
  shopErrorBody,
} from '../http.ts';
import { exampleAmount, minorUnitOf, toMinorUnits } from './money.ts';
import { inPersonPage } from './page.ts';
import { createPaymentLog, type InPersonPayment, type PaymentStatus } from './payments.ts';
import { createSimulator, SIMULATOR_ACTIONS } from './simulator.ts';

export interface InPersonOptions {
  provider: ProviderClient;
  merchantCode: string;
  /** This server's own origin, e.g. `http://127.0.0.1:3000`: the webhook lives there. */
  origin: string;
  /** Origins whose pages may call the JSON API (the server's own, under either host name). */
  allowedOrigins: readonly string[];
  /** Set only when the provider is the local sandbox: enables the device simulator. */
  simulator?: { baseUrl: string; apiKey: string };
  log: (line: string) => void;
}

const MAX_BODY_BYTES = 8 * 1024;
const READER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PAYMENT_ID = /^[A-Za-z0-9-]{1,64}$/;

const CheckoutBodySchema = z.object({ amount: z.string() });
const PresentCardSchema = z.object({ pin: z.optional(z.boolean()) });
const EnterPinSchema = z.object({ correct: z.optional(z.boolean()) });

/** The JSON body (an empty one reads as `{}`) after the content type and size checks. */
async function readBody(c: Context): Promise<unknown> {
  const body = await readJsonBody(c.req.raw);
  if (body.kind === 'json') return body.value;
  if (body.kind === 'empty') return {};
  throw new HttpError(400, 'INVALID_JSON', body.message, 'body');
}

function parseBody<T>(schema: z.ZodMiniType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.join('.') || 'body';
  throw new HttpError(400, 'INVALID', `${field} is missing or has the wrong type`, field);
}

function readerIdOf(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!READER_ID.test(id)) throw new HttpError(400, 'INVALID', 'Not a reader id', 'reader_id');
  return id;
}

export function createInPerson(options: InPersonOptions): { app: Hono } {
  const { provider, merchantCode, log } = options;
  const payments = createPaymentLog();
  const simulator = options.simulator
    ? createSimulator({ provider, merchantCode, ...options.simulator })
    : undefined;
  let merchant: Promise<{ currency: string; country: string | undefined }> | undefined;

  /** The merchant's currency and country, read once from the provider's profile. */
  function merchantFacts() {
    merchant ??= provider.merchant.getMerchantProfile().then(
      (profile) => ({
        currency: profile.address?.country_details?.currency ?? 'EUR',
        country: profile.address?.country ?? undefined,
      }),
      (error: unknown) => {
        merchant = undefined; // try again on the next request
        throw error;
      },
    );
    return merchant;
  }

  // A page on another site cannot drive the till: cross-origin POSTs are refused (and the
  // JSON content type they would need is not allowed without a preflight we never answer).
  const sameOrigin: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || !options.allowedOrigins.includes(origin)) {
      throw new HttpError(403, 'FORBIDDEN_ORIGIN', 'Call this from the demo page');
    }
    await next();
  };
  const bodyLimit = limitBody(MAX_BODY_BYTES);
  const needsSimulator: MiddlewareHandler = async (_c, next) => {
    if (simulator === undefined) {
      throw new HttpError(404, 'NOT_FOUND', 'The device simulator exists only with the sandbox');
    }
    await next();
  };

  const app = new Hono();
  app.use(methodNotAllowedJson(app, shopErrorBody));

  app.get('/', async () => inPersonPage((await merchantFacts()).currency, simulator !== undefined));

  app.get('/api/readers', async () => {
    const { items } = await provider.readers.list(merchantCode);
    return json({
      readers: items.map((r) => ({ id: r.id, name: r.name ?? r.id, status: r.status })),
    });
  });

  app.get('/api/payments/:id', (c) => {
    const id = c.req.param('id');
    if (!PAYMENT_ID.test(id)) throw new HttpError(400, 'INVALID', 'Not a payment id', 'id');
    const payment = payments.get(id);
    if (!payment) throw new HttpError(404, 'NOT_FOUND', 'No such payment', 'id');
    return json({ payment });
  });

  app.post('/api/readers/:id/checkout', sameOrigin, requireJsonType, bodyLimit, async (c) => {
    const readerId = readerIdOf(c);
    const body = parseBody(CheckoutBodySchema, await readBody(c));
    const { currency, country } = await merchantFacts();
    const minorUnit = minorUnitOf(currency);
    const value = toMinorUnits(body.amount, minorUnit);
    if (value === undefined) {
      const message = `amount must look like ${exampleAmount(minorUnit)} (more than 0)`;
      throw new HttpError(400, 'INVALID', message, 'amount');
    }
    const checkout: ReaderCheckoutBody = {
      total_amount: { value, currency, minor_unit: minorUnit },
      description: 'In-person sale',
      // Where the provider POSTs the result; the sandbox accepts http://127.0.0.1 here,
      // the provider wants HTTPS.
      return_url: `${options.origin}/in-person/webhook`,
      // Readers in Brazil must be told the card type; the demo sells on debit there.
      ...(country === 'BR' ? { card_type: 'debit' as const } : {}),
    };
    const started = await provider.readers.checkout(merchantCode, readerId, checkout);
    const payment: InPersonPayment = {
      id: started.data.client_transaction_id,
      reader_id: readerId,
      amount: (value / 10 ** minorUnit).toFixed(minorUnit),
      currency,
      status: 'pending',
      created_at: new Date().toISOString(),
    };
    payments.remember(payment);
    log(`in-person: checkout ${payment.id} started on ${readerId}`);
    return json({ payment }, 201);
  });

  app.post('/api/readers/:id/terminate', sameOrigin, async (c) => {
    const readerId = readerIdOf(c);
    await provider.readers.terminate(merchantCode, readerId);
    // The provider confirms nothing here: the failed result arrives by webhook like any other.
    return json({ payment: payments.pendingOn(readerId) ?? null }, 202);
  });

  /**
   * The webhook is unsigned, so it is a hint: the status shown is the one the provider's
   * transaction has when we ask. A failed lookup answers 503 so the provider retries later.
   */
  app.post('/webhook', requireJsonType, bodyLimit, async (c) => {
    const event = parseBody(ReaderCheckoutStatusChangeSchema, await readBody(c));
    const payment = payments.get(event.payload.client_transaction_id);
    if (event.payload.merchant_code !== merchantCode || !payment) {
      // Not one of ours (or forgotten): acknowledged, so the provider stops retrying.
      return empty(204);
    }
    let transaction: Awaited<ReturnType<ProviderClient['transactions']['get']>>;
    try {
      transaction = await provider.transactions.get(merchantCode, {
        client_transaction_id: payment.id,
      });
    } catch (error) {
      log(`in-person: could not confirm ${payment.id}; the provider will retry`);
      if (error instanceof ProviderError) return errorJson(503, error.errorCode, 'Confirm later');
      throw error;
    }
    const status: PaymentStatus | undefined =
      transaction.status === 'SUCCESSFUL'
        ? 'successful'
        : transaction.status === 'FAILED' || transaction.status === 'CANCELLED'
          ? 'failed'
          : undefined;
    if (status !== undefined && payment.status === 'pending') {
      payment.status = status;
      if (transaction.transaction_code) payment.transaction_code = transaction.transaction_code;
      log(`in-person: ${payment.id} ${status}`);
    }
    return empty(204);
  });

  app.post('/api/simulator/readers', sameOrigin, needsSimulator, () => simulator!.addReader());

  app.post(
    '/api/simulator/readers/:id/:action',
    sameOrigin,
    needsSimulator,
    requireJsonType,
    bodyLimit,
    async (c) => {
      const readerId = readerIdOf(c);
      const action = c.req.param('action');
      if (!SIMULATOR_ACTIONS.has(action)) {
        throw new HttpError(404, 'NOT_FOUND', `No simulator action ${action}`, 'action');
      }
      const input = await readBody(c);
      const body =
        action === 'present-card'
          ? parseBody(PresentCardSchema, input)
          : action === 'enter-pin'
            ? parseBody(EnterPinSchema, input)
            : {};
      return simulator!.act(readerId, action, body);
    },
  );

  app.onError((error) => {
    if (error instanceof HttpError) {
      return errorJson(error.status, error.code, error.message, error.field, error.headers);
    }
    // The provider's refusal, passed on with its status and code (a reader error is a 422).
    if (error instanceof ProviderError) {
      if (error.kind === 'http' && error.status < 500) {
        return errorJson(error.status, error.errorCode, error.message, error.param);
      }
      log(`in-person: provider unavailable (${error.errorCode})`);
      return errorJson(502, error.errorCode, 'The payment provider could not be reached');
    }
    log(`in-person: unexpected ${error.name}`);
    return errorJson(500, 'INTERNAL', 'Internal error');
  });

  return { app };
}
