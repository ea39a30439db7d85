// The whole server side as a merchant runs it, on loopback sockets: the sandbox (the
// provider), the companion handler behind node:http, the sandbox's webhooks reaching the
// handler's /webhook. A "front" in front of the handler lets a test break the merchant's
// side of webhook delivery (503s, dropped connections).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import {
  createPaymentHandler,
  type LogEntry,
  type PaymentHandlerOptions,
  toNodeListener,
} from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import { listenLoopback } from '../support/loopback.ts';

export const ORIGIN = 'https://shop.example';

/**
 * The handler's per-call timeout; injected latencies are set relative to it. 600 ms on an
 * idle machine, scaled (a plain call must not hit it on a loaded one), but at most 1.2 s: the
 * sandbox gives a webhook attempt 5 s, and the handler's read (a try and two retries) must
 * fit in it for the webhook tests to see the handler's answer rather than a timeout.
 */
export const TIMEOUT_MS = Math.min(scaled(600), 1_200);

export const PAID_CARD = '4200000000000091';
export const CHALLENGE_CARD = '4200000000000042';

/** What the merchant's front answers to a webhook POST before the handler sees it. */
export type FrontFault = 'ok' | '503' | 'drop';

export interface Stack {
  sandbox: Sandbox;
  handlerUrl: string;
  /** onPaid / onFailed calls per checkout id. */
  paid: Map<string, number>;
  failed: Map<string, number>;
  handlerLogs: LogEntry[];
  sandboxLogs: string[];
  /** Consumed one per webhook POST; empty means pass through. */
  frontFaults: FrontFault[];
  /** Webhook POSTs that reached the front, whatever it answered. */
  webhookHits: number;
  /**
   * The handler's answers to the webhooks that got past the front, by the checkout id in
   * their body, in order. The sandbox delivers a checkout's webhook once, when it reaches
   * its final status, and stops at the first 2xx: after one, no report of it is on its way.
   */
  webhookAnswers: Map<string, number[]>;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** POST /sandbox/faults; `path` is a provider path pattern such as `/v0.1/checkouts/:id`. */
  fault(fault: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  /** The checkout as the provider has it, read past the handler. */
  providerCheckout(id: string): Promise<Checkout>;
  /** The shopper passes (Y) or fails (N) the 3DS challenge: what the challenge page posts. */
  completeChallenge(nextStep: unknown, result: 'Y' | 'N'): Promise<number>;
  /** `until` (test/shared/until.ts): resolves once `condition` holds. */
  waitFor(
    what: string,
    condition: () => boolean | Promise<boolean>,
    timeoutMs?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(options: Partial<PaymentHandlerOptions> = {}): Promise<Stack> {
  const sandboxLogs: string[] = [];
  const sandbox = await createSandbox({
    webhook: { attempts: 8, initialDelayMs: 20, maxDelayMs: 200 },
    log: (line) => sandboxLogs.push(line),
  });
  const paid = new Map<string, number>();
  const failed = new Map<string, number>();
  const handlerLogs: LogEntry[] = [];
  const count = (map: Map<string, number>) => (checkout: Checkout) => {
    if (checkout.id) map.set(checkout.id, (map.get(checkout.id) ?? 0) + 1);
  };

  const front = createServer();
  const listening = await listenLoopback(front);
  const handlerUrl = listening.url;
  const handle = createPaymentHandler({
    provider: {
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      merchantCode: sandbox.merchantCode,
      timeoutMs: TIMEOUT_MS,
      retries: 2,
    },
    publicUrl: `${handlerUrl}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/done?ok=1',
      failure: '/done?ok=0',
    },
    resolveCheckout: (order) => ({
      amount: typeof order === 'number' ? order : 10,
      currency: 'EUR',
      redirect: false,
    }),
    hooks: {
      onPaid: count(paid),
      onFailed: count(failed),
    },
    logger: (entry) => handlerLogs.push(entry),
    ...options,
  });
  const webhookAnswers = new Map<string, number[]>();
  // Between the node adapter and the handler: notes which checkout each webhook named and
  // what the handler answered; the handler gets the request as it came.
  const listener = toNodeListener(async (request) => {
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/webhook')) {
      return handle(request);
    }
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const response = await handle(request);
    if (isRecord(body) && typeof body.id === 'string') {
      webhookAnswers.set(body.id, [...(webhookAnswers.get(body.id) ?? []), response.status]);
    }
    return response;
  });
  const stack: Stack = {
    sandbox,
    handlerUrl,
    paid,
    failed,
    handlerLogs,
    sandboxLogs,
    frontFaults: [],
    webhookHits: 0,
    webhookAnswers,
    async call(method, path, body) {
      const res = await fetch(`${handlerUrl}/payments${path}`, {
        method,
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    async fault(fault) {
      const res = await sandbox.handle(
        new Request(`${sandbox.url}/sandbox/faults`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${sandbox.apiKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(fault),
        }),
      );
      if (res.status !== 201) throw new Error(`fault refused: ${await res.text()}`);
    },
    async clearFaults() {
      await sandbox.handle(
        new Request(`${sandbox.url}/sandbox/faults`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${sandbox.apiKey}` },
        }),
      );
    },
    async providerCheckout(id) {
      const res = await sandbox.handle(
        new Request(`${sandbox.url}/v0.1/checkouts/${id}`, {
          headers: { authorization: `Bearer ${sandbox.apiKey}` },
        }),
      );
      return (await res.json()) as Checkout;
    },
    async completeChallenge(nextStep, result) {
      const payload = (nextStep as { payload: { MD: string; TermUrl: string } }).payload;
      const res = await fetch(payload.TermUrl, {
        method: 'POST',
        body: new URLSearchParams({ MD: payload.MD, PaRes: result }),
        redirect: 'manual',
      });
      await res.body?.cancel();
      return res.status;
    },
    waitFor: until,
    async close() {
      await listening.close();
      await sandbox.close();
    },
  };
  front.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/payments/webhook') && req.method === 'POST') {
      stack.webhookHits += 1;
      const fault = stack.frontFaults.shift() ?? 'ok';
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault === '503') {
        res.writeHead(503).end();
        return;
      }
    }
    listener(req, res);
  });
  return stack;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The handler's error body `{ error: { code, message, retryable? } }`. */
export function errorOf(body: unknown): { code: string; message: string; retryable?: boolean } {
  if (!isRecord(body) || !isRecord(body.error))
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  return body.error as { code: string; message: string; retryable?: boolean };
}
