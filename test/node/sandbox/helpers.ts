// The sandbox suites' harness: a real sandbox on 127.0.0.1 (random port), a fetch wrapper
// that parses JSON, schema validation of every JSON body, and a tiny webhook receiver.
// Card bodies are in ../support/cards.ts, shared with the handler suites.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { after, before, beforeEach } from 'node:test';
import type * as z from 'zod/mini';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';
import { FlatErrorSchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { listenLoopback } from '../support/loopback.ts';

/** Asserts that `body` matches `schema` and returns the parsed value. */
export function expectValid<S extends z.ZodMiniType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    assert.fail(
      `response does not match the schema: ${JSON.stringify(result.error.issues)}\n${JSON.stringify(body)}`,
    );
  }
  return result.data as z.infer<S>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface Harness {
  sandbox: Sandbox;
  logs: string[];
  api(method: string, path: string, body?: unknown, key?: string | null): Promise<ApiResult>;
  /** Asserts a provider error `{ error_code, message, param? }` with this status. */
  expectError(res: ApiResult, status: number, code: string, param?: string): void;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Harness> {
  const logs: string[] = [];
  const sandbox = await createSandbox({
    webhook: { attempts: 4, initialDelayMs: 10, maxDelayMs: 40 },
    ...options,
    log: (line) => logs.push(line),
  });
  return {
    sandbox,
    logs,
    async api(method, path, body, key = sandbox.apiKey) {
      const headers: Record<string, string> = {};
      if (key !== null) headers.authorization = `Bearer ${key}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      const isJson = res.headers.get('content-type')?.includes('application/json');
      return { status: res.status, headers: res.headers, body: isJson ? JSON.parse(text) : text };
    },
    expectError(res, status, code, param) {
      assert.equal(res.status, status, JSON.stringify(res.body));
      const err = expectValid(FlatErrorSchema, res.body);
      assert.equal(err.error_code, code);
      if (param !== undefined) assert.equal(err.param, param);
      assert.ok(err.message.length > 0);
    },
  };
}

/** Moves the sandbox clock forward: what waits for sandbox time happens without a sleep. */
export async function advanceClock(h: Harness, advanceMs: number): Promise<void> {
  const res = await h.api('POST', '/sandbox/clock', { advanceMs });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/**
 * A new sandbox device paired as a reader of MSANDBOX1, with a 10.00 EUR checkout
 * started on it that reports its result to `returnUrl`. The device's identifier is
 * what `/sandbox/devices/:id/present-card` takes.
 */
export async function startReaderCheckout(
  h: Harness,
  returnUrl: string,
): Promise<{ deviceId: string; pairingCode: string }> {
  const device = (await h.api('POST', '/sandbox/devices')).body as {
    identifier: string;
    pairing_code: string;
  };
  const readers = '/v0.1/merchants/MSANDBOX1/readers';
  const reader = (await h.api('POST', readers, { pairing_code: device.pairing_code })).body as {
    id: string;
  };
  const started = await h.api('POST', `${readers}/${reader.id}/checkout`, {
    total_amount: { value: 1000, currency: 'EUR', minor_unit: 2 },
    return_url: returnUrl,
  });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  return { deviceId: device.identifier, pairingCode: device.pairing_code };
}

let refCounter = 0;
export function checkoutBody(extra: Record<string, unknown> = {}) {
  refCounter += 1;
  return {
    checkout_reference: `order-${process.pid}-${refCounter}`,
    amount: 10,
    currency: 'EUR',
    merchant_code: 'MSANDBOX1',
    ...extra,
  };
}

export interface WebhookReceiver {
  url: string;
  received: { body: unknown; at: number }[];
  /**
   * Status codes (or a status with headers) to answer, in order; then 204. `hold` never
   * answers: the request stays in flight until the sender gives up or the receiver closes.
   * A promise answers with its status once it resolves (the test decides when).
   */
  replies: (
    | number
    | { status: number; headers: Record<string, string> }
    | 'hold'
    | Promise<number>
  )[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: { body: unknown; at: number }[] = [];
  const replies: WebhookReceiver['replies'] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    received.push({ body: JSON.parse(text) as unknown, at: Date.now() });
    const next = replies.shift() ?? 204;
    if (next === 'hold') return;
    const reply = await next;
    if (typeof reply === 'number') res.writeHead(reply).end();
    else res.writeHead(reply.status, reply.headers).end();
  });
  const listening = await listenLoopback(server);
  return {
    url: `${listening.url}/hooks`,
    received,
    replies,
    waitFor: (count, timeoutMs) =>
      until(
        () => `${count} webhooks, got ${received.length}`,
        () => received.length >= count,
        timeoutMs,
      ),
    close: listening.close,
  };
}

/**
 * A sandbox started with `options` and a webhook receiver, for the `describe` block this is
 * called in: started before its tests (handed to `started`), reset before each test (the
 * sandbox's state, what the receiver got and its queued replies), closed after them.
 */
export function sandboxAndReceiver(
  options: SandboxOptions,
  started: (both: { h: Harness; hooks: WebhookReceiver }) => void,
): void {
  let both: { h: Harness; hooks: WebhookReceiver } | undefined;
  before(async () => {
    both = { h: await startSandbox(options), hooks: await startWebhookReceiver() };
    started(both);
  });
  after(async () => {
    await both?.h.sandbox.close();
    await both?.hooks.close();
  });
  beforeEach(async () => {
    assert.ok(both, 'the sandbox did not start');
    assert.equal((await both.h.api('POST', '/sandbox/reset')).status, 204);
    both.hooks.received.length = 0;
    both.hooks.replies.length = 0;
  });
}

/** Posts a form like a browser does, without following redirects. */
export async function postForm(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
