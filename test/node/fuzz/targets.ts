// The two fuzzed surfaces, the companion handler and the sandbox, described as routes with a
// valid body each, plus what a fresh resource for a path parameter is. `run.ts` turns them
// into requests; the same descriptions serve `npm test` and the longer `npm run fuzz`. How a
// target is reached (in process, or over a socket on 127.0.0.1) is in `transport.ts`.
import fc from 'fast-check';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import {
  createPaymentHandler,
  type LogEntry,
  type PageViolation,
  PaymentHandlerError,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { encode, pathSegment, queryString, weirdString } from './inputs.ts';
import { reportRoutes } from './reports.ts';
import { inProcessFetch, listen } from './transport.ts';

export const ORIGIN = 'https://shop.example';
/** Port 9 (discard) refuses at once: webhooks to it fail fast and never leave the machine. */
export const DEAD_URL = 'http://127.0.0.1:9';
/** Placeholders in body templates, replaced per request (see `Target.fill`). */
export const REF = '__REF__';
export const TOKEN = '__TOKEN__';
export const CHECKOUT = '__CHECKOUT__';

export interface RouteSpec {
  method: string;
  /** Path with `:checkout`, `:customer`, `:txn`, `:token`, `:merchant`, `:method`, `:any` holes. */
  path: string;
  /** A body the route accepts; absent for routes without one. */
  body?: unknown;
  /** Form bodies (the sandbox's browser pages) are sent url-encoded. */
  form?: boolean;
  query?: fc.Arbitrary<string>;
  weight?: number;
}

export type Credential = 'valid' | 'none' | 'wrong';

export interface Target {
  name: 'handler' | 'sandbox';
  base: string;
  routes: RouteSpec[];
  /** Answers a request in process (`handle`) — the fast path most fuzz requests take. */
  handle(request: Request): Promise<Response>;
  /** The same app behind a real socket on 127.0.0.1. */
  url: string;
  /** Headers that make a request allowed (or not): the API key or the page origin. */
  credentials(kind: Credential, wrong: string): Record<string, string>;
  /** A resource for a path hole, created just now so the request reaches its handler. */
  fresh(hole: string): Promise<string>;
  /** Replaces the placeholders of a body template (REF, TOKEN, CHECKOUT) for one request. */
  fill(text: string): Promise<string>;
  /** Called between batches: keeps the sandbox's lists short so the run stays fast. */
  refresh(): Promise<void>;
  /** The error body's field name and code, or undefined when the shape is wrong. */
  readError(body: unknown): { code: string; message: string; field?: string } | undefined;
  logs: string[];
  /** What the handler's `hooks.onPageViolation` was given (the handler's target only). */
  violations?: PageViolation[];
  close(): Promise<void>;
}

const card = cardBody('4200000000000091');
const ideal = {
  payment_type: 'ideal',
  personal_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
};
const tokenBody = { payment_type: 'card', token: 'tok_missing', customer_id: 'cus_ok' };

const amountQuery = fc.oneof(
  fc.constant('?amount=10.00&currency=EUR'),
  fc
    .tuple(weirdString, fc.constantFrom('EUR', 'eur', 'BRL', '', 'EURO'))
    .map(([a, c]) => `?amount=${encode(a.slice(0, 40))}&currency=${c}`),
  queryString,
);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function sandboxApi(sb: Sandbox, method: string, path: string, body?: unknown) {
  const res = await sb.handle(
    new Request(`${sb.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

let refs = 0;
const nextRef = () => `fuzz-${process.pid}-${++refs}`;

async function freshCheckout(sb: Sandbox, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await sandboxApi(sb, 'POST', '/v0.1/checkouts', {
    checkout_reference: nextRef(),
    amount: 10,
    currency: 'EUR',
    merchant_code: sb.merchantCode,
    return_url: `${DEAD_URL}/hook`,
    redirect_url: 'https://shop.example/return',
    ...extra,
  });
  return String(created?.id);
}

/** A paid checkout's transaction and a saved card, for the lookups to aim at. */
async function seedSandbox(sb: Sandbox): Promise<{ txnId: string; token: string }> {
  const paidId = await freshCheckout(sb);
  const paid = await sandboxApi(sb, 'PUT', `/v0.1/checkouts/${paidId}`, card);
  const txnId = String((paid?.transactions as { id: string }[] | undefined)?.[0]?.id);
  await sandboxApi(sb, 'POST', '/v0.1/customers', { customer_id: 'cus_fuzz' });
  const saveId = await freshCheckout(sb, {
    customer_id: 'cus_fuzz',
    purpose: 'SETUP_RECURRING_PAYMENT',
  });
  await sandboxApi(sb, 'PUT', `/v0.1/checkouts/${saveId}`, {
    ...card,
    mandate: { type: 'recurrent', user_agent: 'fuzz' },
  });
  const instruments = (await sb
    .handle(
      new Request(`${sb.url}/v0.1/customers/cus_fuzz/payment-instruments`, {
        headers: { authorization: `Bearer ${sb.apiKey}` },
      }),
    )
    .then((r) => r.json())) as { token: string }[];
  return { txnId, token: instruments[0]?.token ?? 'tok_none' };
}

/** The sandbox alone, with a paid checkout and a saved card to aim lookups at. */
export async function sandboxTarget(): Promise<Target> {
  const logs: string[] = [];
  const sb = await createSandbox({ webhook: { attempts: 1 }, log: (line) => logs.push(line) });
  let fixtures = await seedSandbox(sb);

  const m = sb.merchantCode;
  const routes: RouteSpec[] = [
    {
      method: 'POST',
      path: '/v0.1/checkouts',
      weight: 4,
      body: {
        checkout_reference: REF,
        amount: 10.5,
        currency: 'EUR',
        merchant_code: m,
        description: 'Tea',
        return_url: `${DEAD_URL}/hook`,
        redirect_url: 'https://shop.example/return',
        customer_id: 'cus_fuzz',
        valid_until: '2099-01-01T00:00:00Z',
      },
    },
    { method: 'GET', path: '/v0.1/checkouts', query: queryString },
    { method: 'GET', path: '/v0.1/checkouts/:checkout' },
    { method: 'PUT', path: '/v0.1/checkouts/:checkout', body: card, weight: 6 },
    { method: 'PUT', path: '/v0.1/checkouts/:checkout', body: ideal, weight: 2 },
    {
      method: 'PUT',
      path: '/v0.1/checkouts/:checkout',
      body: { payment_type: 'card', token: TOKEN, customer_id: 'cus_fuzz' },
      weight: 2,
    },
    { method: 'DELETE', path: '/v0.1/checkouts/:checkout' },
    { method: 'GET', path: '/v0.1/merchants/:merchant/payment-methods', query: amountQuery },
    {
      method: 'POST',
      path: '/v0.1/customers',
      weight: 2,
      body: {
        customer_id: REF,
        personal_details: {
          first_name: 'Ada',
          email: 'ada@example.com',
          birth_date: '1815-12-10',
          address: { city: 'London', country: 'GB', postal_code: 'W1' },
        },
      },
    },
    { method: 'GET', path: '/v0.1/customers/:customer' },
    {
      method: 'PUT',
      path: '/v0.1/customers/:customer',
      body: { personal_details: { last_name: 'Byron', phone: '+44 20 7946 0000' } },
    },
    { method: 'GET', path: '/v0.1/customers/:customer/payment-instruments' },
    { method: 'DELETE', path: '/v0.1/customers/:customer/payment-instruments/:token' },
    { method: 'GET', path: '/v2.1/merchants/:merchant/transactions', query: queryString },
    {
      method: 'GET',
      path: '/v2.1/merchants/:merchant/transactions/history',
      query: fc.oneof(
        queryString,
        fc.constant('?limit=1&order=descending&statuses[]=SUCCESSFUL&changes_since=2020-01-01'),
      ),
    },
    { method: 'GET', path: '/v0.1/me/transactions', query: queryString },
    { method: 'GET', path: '/v0.1/me/transactions/history', query: queryString },
    { method: 'POST', path: '/v0.1/me/refund/:txn', body: { amount: 0.01 } },
    { method: 'GET', path: '/sandbox/3ds/:checkout', query: queryString },
    { method: 'POST', path: '/sandbox/3ds/:checkout', body: { MD: 'x' }, form: true },
    {
      method: 'POST',
      path: '/v0.1/checkouts/:checkout/complete_payment',
      body: { MD: 'x', PaRes: 'Y' },
      form: true,
    },
    { method: 'GET', path: '/sandbox/bank/:method/:checkout', query: queryString },
    {
      method: 'POST',
      path: '/sandbox/bank/:method/:checkout',
      body: { tx: 'x', result: 'approve' },
      form: true,
    },
    { method: 'GET', path: '/sandbox/boleto/:checkout' },
    { method: 'POST', path: '/sandbox/checkouts/:checkout/settle', body: { status: 'PAID' } },
    { method: 'GET', path: '/sandbox/faults' },
    { method: 'GET', path: '/:any/:any' },
  ];

  return {
    name: 'sandbox',
    base: '',
    routes,
    handle: sb.handle,
    url: sb.url,
    logs,
    credentials(kind, wrong): Record<string, string> {
      if (kind === 'none') return {};
      if (kind === 'wrong') return { authorization: wrong };
      return { authorization: `Bearer ${sb.apiKey}` };
    },
    async fresh(hole) {
      switch (hole) {
        case 'checkout':
          return freshCheckout(sb);
        case 'customer':
          return 'cus_fuzz';
        case 'txn':
          return fixtures.txnId;
        case 'token':
          return fixtures.token;
        case 'merchant':
          return m;
        case 'method':
          return 'ideal';
        default:
          return 'v0.1';
      }
    },
    async fill(text) {
      return text
        .replaceAll(`"${REF}"`, JSON.stringify(nextRef()))
        .replaceAll(`"${TOKEN}"`, JSON.stringify(fixtures.token));
    },
    async refresh() {
      sb.reset();
      fixtures = await seedSandbox(sb);
    },
    readError(body) {
      if (!isRecord(body)) return undefined;
      const { error_code: code, message, param } = body;
      if (typeof code !== 'string' || typeof message !== 'string') return undefined;
      if (param !== undefined && typeof param !== 'string') return undefined;
      return { code, message, ...(param === undefined ? {} : { field: param }) };
    },
    close: () => sb.close(),
  };
}

/**
 * The handler wired to an in-process sandbox: its provider calls go to `sandbox.handle`
 * without a socket, so thousands of requests take seconds. `handle` and the socket
 * (`url`) serve the same handler.
 */
export async function handlerTarget(): Promise<Target> {
  const logs: string[] = [];
  const violations: PageViolation[] = [];
  const sb = await createSandbox({ webhook: { attempts: 1 }, log: (line) => logs.push(line) });
  const handle = createPaymentHandler({
    provider: {
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      merchantCode: sb.merchantCode,
      retries: 0,
      // What is judged is the handler's answer to hostile input, never the provider's speed:
      // a machine too busy to answer in the default 10 s would fail the run with a 504.
      timeoutMs: 600_000,
      fetch: inProcessFetch(sb),
    },
    publicUrl: `${DEAD_URL}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/done?ok=1',
      failure: '/done?ok=0',
    },
    resolveCheckout(order) {
      const sku = isRecord(order) ? order.sku : undefined;
      if (sku !== 'tea') throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order');
      return { amount: 10, currency: 'EUR', description: 'Tea' };
    },
    authorizeCustomer: (_request, customerId) => customerId === 'cus_ok',
    hooks: {
      onPaid() {},
      onFailed() {},
      onPageViolation: (violation) => void violations.push(violation),
    },
    logger: (entry: LogEntry) => logs.push(JSON.stringify(entry)),
  });
  const server = await listen(handle);
  const routes: RouteSpec[] = [
    { method: 'POST', path: '/payments/checkouts', body: { order: { sku: 'tea' } }, weight: 3 },
    { method: 'GET', path: '/payments/checkouts/:checkout', weight: 2 },
    { method: 'PUT', path: '/payments/checkouts/:checkout', body: card, weight: 6 },
    { method: 'PUT', path: '/payments/checkouts/:checkout', body: ideal, weight: 2 },
    { method: 'PUT', path: '/payments/checkouts/:checkout', body: tokenBody, weight: 1 },
    {
      method: 'PUT',
      path: '/payments/checkouts/:brl',
      body: { payment_type: 'boleto', personal_details: ideal.personal_details },
    },
    { method: 'GET', path: '/payments/payment-methods', query: amountQuery },
    { method: 'GET', path: '/payments/customers/:customer/payment-instruments' },
    {
      method: 'GET',
      path: '/payments/return',
      query: fc.oneof(
        queryString,
        pathSegment.map((s) => `?checkout_id=${s}`),
      ),
    },
    {
      method: 'POST',
      path: '/payments/webhook',
      body: { event_type: 'CHECKOUT_STATUS_CHANGED', id: CHECKOUT },
      weight: 2,
    },
    ...reportRoutes(ORIGIN),
    { method: 'GET', path: '/payments/:any/:any' },
    { method: 'GET', path: '/:any' },
  ];
  return {
    name: 'handler',
    base: '',
    routes,
    handle,
    url: server.url,
    logs,
    violations,
    credentials(kind, wrong): Record<string, string> {
      if (kind === 'none') return {};
      return { origin: kind === 'wrong' ? wrong : ORIGIN };
    },
    async fill(text) {
      let out = text.replaceAll(`"${REF}"`, JSON.stringify(nextRef()));
      if (out.includes(`"${CHECKOUT}"`)) {
        out = out.replaceAll(`"${CHECKOUT}"`, JSON.stringify(await freshCheckout(sb)));
      }
      return out;
    },
    async refresh() {
      sb.reset();
    },
    async fresh(hole) {
      if (hole === 'checkout') return freshCheckout(sb);
      if (hole === 'brl') return freshCheckout(sb, { currency: 'BRL' });
      if (hole === 'customer') return 'cus_ok';
      return 'checkouts';
    },
    readError(body) {
      if (!isRecord(body) || !isRecord(body.error)) return undefined;
      const { code, message, field } = body.error;
      if (typeof code !== 'string' || typeof message !== 'string') return undefined;
      if (field !== undefined && typeof field !== 'string') return undefined;
      return { code, message, ...(field === undefined ? {} : { field }) };
    },
    async close() {
      await server.close();
      await sb.close();
    },
  };
}
