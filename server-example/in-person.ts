/**
 * In-person payments on a card reader (issue 8): the page at `/in-person`
 * and the small JSON API it calls. The merchant picks a paired reader,
 * starts a checkout for an amount, may terminate it, and sees the result the
 * provider POSTs to `/in-person/webhook`.
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
 * The key stays here: the page sends reader ids and an amount, never a key or a
 * device control URL.
 */
import * as z from 'zod/mini';
import { type ReaderCheckoutBody, ReaderCheckoutStatusChangeSchema } from '../src/schemas/index.ts';
import { type ProviderClient, ProviderError } from '../src/server/index.ts';
import { render } from './pages.ts';

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

export type PaymentStatus = 'pending' | 'successful' | 'failed';

interface InPersonPayment {
  id: string;
  reader_id: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  /** Set once the provider's webhook has been confirmed against the transaction. */
  transaction_code?: string;
  created_at: string;
}

/** A demo keeps the last payments in memory; a shop would store them with its orders. */
const MAX_PAYMENTS = 200;
const MAX_BODY_BYTES = 8 * 1024;
const READER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PAYMENT_ID = /^[A-Za-z0-9-]{1,64}$/;
/** The seed's whole-unit currencies; Intl disagrees for HUF, the provider does not. */
const ZERO_DECIMAL = new Set(['CLP', 'COP', 'HUF']);
const SIMULATOR_ACTIONS = new Set(['present-card', 'enter-pin', 'offline', 'online']);

const CheckoutBodySchema = z.object({ amount: z.string() });
const PresentCardSchema = z.object({ pin: z.optional(z.boolean()) });
const EnterPinSchema = z.object({ correct: z.optional(z.boolean()) });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

const fail = (status: number, code: string, message: string, field?: string) =>
  json({ error: { code, message, ...(field ? { field } : {}) } }, status);

/** The page's CSP: its own script and styles only, nothing inline, no framing. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types',
].join('; ');

export function minorUnitOf(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** "12.50" -> 1250 (minor unit 2); undefined when it is not a positive amount in that unit. */
export function toMinorUnits(text: string, minorUnit: number): number | undefined {
  const decimals = minorUnit === 0 ? '' : `([.,]\\d{1,${minorUnit}})?`;
  if (!new RegExp(`^\\d{1,9}${decimals}$`).test(text.trim())) return undefined;
  const [whole = '0', fraction = ''] = text.trim().replace(',', '.').split('.');
  const value = Number(whole) * 10 ** minorUnit + Number(fraction.padEnd(minorUnit, '0') || 0);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

class BadRequest extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) {
    throw new BadRequest(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json', 'content-type');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new BadRequest(413, 'TOO_LARGE', `The body is over ${MAX_BODY_BYTES} bytes`);
  }
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) {
    throw new BadRequest(413, 'TOO_LARGE', `The body is over ${MAX_BODY_BYTES} bytes`);
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest(400, 'INVALID_JSON', 'The body is not JSON', 'body');
  }
}

function parseBody<T>(schema: z.ZodMiniType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  throw new BadRequest(400, 'INVALID', `${field} is missing or has the wrong type`, field);
}

/** The provider's refusal, passed on with its status and code (a reader error is a 422). */
function providerFailure(error: unknown, log: (line: string) => void): Response {
  if (error instanceof ProviderError) {
    if (error.kind === 'http' && error.status < 500) {
      return fail(error.status, error.errorCode, error.message, error.param);
    }
    log(`in-person: provider unavailable (${error.errorCode})`);
    return fail(502, error.errorCode, 'The payment provider could not be reached');
  }
  if (error instanceof BadRequest)
    return fail(error.status, error.code, error.message, error.field);
  throw error;
}

export function createInPerson(options: InPersonOptions) {
  const { provider, merchantCode, log } = options;
  const payments = new Map<string, InPersonPayment>();
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

  function remember(payment: InPersonPayment): void {
    payments.set(payment.id, payment);
    // Maps iterate in insertion order: the first key is the oldest payment.
    while (payments.size > MAX_PAYMENTS) payments.delete(payments.keys().next().value as string);
  }

  async function page(): Promise<Response> {
    const { currency } = await merchantFacts();
    const body = render('in-person.html', {
      currency,
      simulator: options.simulator ? 'on' : 'off',
      simulatorPanel: options.simulator ? render('in-person-simulator.html', {}) : '',
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'content-security-policy': PAGE_CSP,
      },
    });
  }

  async function listReaders(): Promise<Response> {
    const { items } = await provider.readers.list(merchantCode);
    return json({
      readers: items.map((r) => ({ id: r.id, name: r.name ?? r.id, status: r.status })),
    });
  }

  async function startCheckout(request: Request, readerId: string): Promise<Response> {
    const body = parseBody(CheckoutBodySchema, await readJsonBody(request));
    const { currency, country } = await merchantFacts();
    const minorUnit = minorUnitOf(currency);
    const value = toMinorUnits(body.amount, minorUnit);
    if (value === undefined) {
      const example = minorUnit === 0 ? '1250' : `12.${'5'.padEnd(minorUnit, '0')}`;
      throw new BadRequest(
        400,
        'INVALID',
        `amount must look like ${example} (more than 0)`,
        'amount',
      );
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
    remember(payment);
    log(`in-person: checkout ${payment.id} started on ${readerId}`);
    return json({ payment }, 201);
  }

  async function terminate(readerId: string): Promise<Response> {
    await provider.readers.terminate(merchantCode, readerId);
    // The provider confirms nothing here: the failed result arrives by webhook like any other.
    const payment = [...payments.values()]
      .reverse()
      .find((p) => p.reader_id === readerId && p.status === 'pending');
    return json({ payment: payment ?? null }, 202);
  }

  /**
   * The webhook is unsigned, so it is a hint: the status shown is the one the
   * provider's transaction has when we ask. A failed lookup answers 503 so the
   * provider retries later.
   */
  async function webhook(request: Request): Promise<Response> {
    const event = parseBody(ReaderCheckoutStatusChangeSchema, await readJsonBody(request));
    const payment = payments.get(event.payload.client_transaction_id);
    if (event.payload.merchant_code !== merchantCode || !payment) {
      // Not one of ours (or forgotten): acknowledged, so the provider stops retrying.
      return new Response(null, { status: 204 });
    }
    let transaction: Awaited<ReturnType<ProviderClient['transactions']['get']>>;
    try {
      transaction = await provider.transactions.get(merchantCode, {
        client_transaction_id: payment.id,
      });
    } catch (error) {
      log(`in-person: could not confirm ${payment.id}; the provider will retry`);
      if (error instanceof ProviderError) return fail(503, error.errorCode, 'Confirm later');
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
    return new Response(null, { status: 204 });
  }

  async function simulatorCall(path: string, body: unknown): Promise<Response> {
    const sim = options.simulator!;
    let res: Response;
    try {
      res = await fetch(new URL(path, sim.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return fail(502, 'SIMULATOR_UNREACHABLE', 'The sandbox could not be reached');
    }
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const param = typeof answer.param === 'string' ? answer.param : undefined;
      return fail(
        res.status >= 500 ? 502 : res.status,
        String(answer.error_code ?? 'SIMULATOR_ERROR'),
        String(answer.message ?? 'The simulated device refused'),
        param,
      );
    }
    return json(answer, res.status);
  }

  /** Switches on a sandbox device and pairs it the way a merchant would: by its code. */
  async function addSimulatedReader(): Promise<Response> {
    const switched = await simulatorCall('/sandbox/devices', { model: 'solo' });
    if (!switched.ok) return switched;
    const device = (await switched.json()) as { identifier: string; pairing_code: string };
    const count = (await provider.readers.list(merchantCode)).items.length;
    const reader = await provider.readers.create(merchantCode, {
      pairing_code: device.pairing_code,
      name: `Simulated reader ${count + 1}`,
    });
    // A real device confirms after a moment; the demo's does it now.
    const path = `/sandbox/devices/${encodeURIComponent(device.identifier)}/confirm-pairing`;
    const confirmed = await simulatorCall(path, {});
    // 409: it was already paired (a sandbox with no pairing delay).
    if (!confirmed.ok && confirmed.status !== 409) return confirmed;
    const paired = await provider.readers.get(merchantCode, reader.id);
    return json(
      { reader: { id: paired.id, name: paired.name ?? paired.id, status: paired.status } },
      201,
    );
  }

  async function simulate(request: Request, readerId: string, action: string): Promise<Response> {
    const input = await readJsonBody(request);
    const body =
      action === 'present-card'
        ? parseBody(PresentCardSchema, input)
        : action === 'enter-pin'
          ? parseBody(EnterPinSchema, input)
          : {};
    const reader = await provider.readers.get(merchantCode, readerId);
    const path = `/sandbox/devices/${encodeURIComponent(reader.device.identifier)}/${action}`;
    return simulatorCall(path, body);
  }

  function sameOrigin(request: Request): boolean {
    const origin = request.headers.get('origin');
    return origin !== null && options.allowedOrigins.includes(origin);
  }

  async function route(request: Request, path: string): Promise<Response> {
    const { method } = request;
    if (path === '/in-person') {
      return method === 'GET' || method === 'HEAD'
        ? page()
        : fail(405, 'METHOD_NOT_ALLOWED', 'Use GET');
    }
    if (path === '/in-person/webhook') {
      return method === 'POST' ? webhook(request) : fail(405, 'METHOD_NOT_ALLOWED', 'Use POST');
    }
    if (path === '/in-person/api/readers' && method === 'GET') return listReaders();

    const paymentMatch = /^\/in-person\/api\/payments\/([^/]+)$/.exec(path);
    if (paymentMatch && method === 'GET') {
      const id = decodeURIComponent(paymentMatch[1]!);
      if (!PAYMENT_ID.test(id)) return fail(400, 'INVALID', 'Not a payment id', 'id');
      const payment = payments.get(id);
      return payment ? json({ payment }) : fail(404, 'NOT_FOUND', 'No such payment', 'id');
    }

    if (method !== 'POST') return fail(404, 'NOT_FOUND', `No route at ${method} ${path}`);
    // A page on another site cannot drive the till: cross-origin POSTs are refused (and the
    // JSON content type they would need is not allowed without a preflight we never answer).
    if (!sameOrigin(request)) return fail(403, 'FORBIDDEN_ORIGIN', 'Call this from the demo page');

    const readerMatch = /^\/in-person\/api\/readers\/([^/]+)\/(checkout|terminate)$/.exec(path);
    if (readerMatch) {
      const readerId = decodeURIComponent(readerMatch[1]!);
      if (!READER_ID.test(readerId)) return fail(400, 'INVALID', 'Not a reader id', 'reader_id');
      return readerMatch[2] === 'checkout' ? startCheckout(request, readerId) : terminate(readerId);
    }

    if (path.startsWith('/in-person/api/simulator/')) {
      if (!options.simulator) {
        return fail(404, 'NOT_FOUND', 'The device simulator exists only with the sandbox');
      }
      if (path === '/in-person/api/simulator/readers') return addSimulatedReader();
      const sim = /^\/in-person\/api\/simulator\/readers\/([^/]+)\/([a-z-]+)$/.exec(path);
      if (sim) {
        const readerId = decodeURIComponent(sim[1]!);
        if (!READER_ID.test(readerId)) return fail(400, 'INVALID', 'Not a reader id', 'reader_id');
        if (!SIMULATOR_ACTIONS.has(sim[2]!)) {
          return fail(404, 'NOT_FOUND', `No simulator action ${sim[2]}`, 'action');
        }
        return simulate(request, readerId, sim[2]!);
      }
    }
    return fail(404, 'NOT_FOUND', `No route at ${method} ${path}`);
  }

  return {
    /** Handles `/in-person` and everything under it. */
    async handle(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname;
      try {
        return await route(request, path);
      } catch (error) {
        return providerFailure(error, log);
      }
    },
  };
}
