// Helpers for the merchant, payouts, receipts, readers and operators tests, on top of the
// sandbox suite's harness (real server on 127.0.0.1, random port). The readers-*.test.ts
// files share the simulated devices below (switch one on, pair it to a reader).

import assert from 'node:assert/strict';
import type { SandboxOptions } from '../../../src/sandbox/index.ts';
import { FlatErrorSchema, ReaderErrorSchema, ReaderSchema } from '../../../src/schemas/index.ts';
import {
  type ApiResult,
  checkoutBody,
  expectValid,
  type Harness,
  startSandbox,
} from '../sandbox/helpers.ts';
import { cardBody } from '../support/cards.ts';

export const MERCHANT = 'MSANDBOX1';
export const today = () => new Date().toISOString().slice(0, 10);

/** Creates and pays a card checkout; returns the payment transaction's id and code. */
export async function paidTransaction(
  h: Harness,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; code: string; checkoutId: string }> {
  const created = await h.api('POST', '/v0.1/checkouts', checkoutBody(extra));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const checkoutId = (created.body as { id: string }).id;
  const paid = await h.api('PUT', `/v0.1/checkouts/${checkoutId}`, cardBody('4200000000000091'));
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  const body = paid.body as { transaction_id?: string; transaction_code?: string; status: string };
  if (body.status === 'PAID') {
    return { id: body.transaction_id!, code: body.transaction_code!, checkoutId };
  }
  const txns = (paid.body as { transactions: { id: string; transaction_code: string }[] })
    .transactions;
  const last = txns.at(-1)!;
  return { id: last.id, code: last.transaction_code, checkoutId };
}

/** Asserts a readers-API refusal: 422 (or `status`) with `errors` and the flat fields. */
export function expectReaderError(
  res: ApiResult,
  code: string,
  param?: string,
  status = 422,
): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const flat = expectValid(FlatErrorSchema, res.body);
  assert.equal(flat.error_code, code, JSON.stringify(res.body));
  if (param !== undefined) assert.equal(flat.param, param, JSON.stringify(res.body));
  const readers = expectValid(ReaderErrorSchema, res.body);
  if (param !== undefined)
    assert.ok(Array.isArray(readers.errors[param]), 'errors names the field');
  else assert.equal(readers.errors.type, code);
}

export function assertDeprecated(res: ApiResult, successor?: string): void {
  assert.match(res.headers.get('deprecation') ?? '', /^@\d+$/);
  const link = res.headers.get('link');
  if (successor === undefined) {
    assert.equal(link, null);
  } else {
    assert.ok(link?.includes(`${successor}`), `Link ${link} names ${successor}`);
    assert.match(link ?? '', /; rel="successor-version"$/);
  }
}

export const readers = (merchant = MERCHANT) => `/v0.1/merchants/${merchant}/readers`;
export const EUR_10 = { total_amount: { value: 1000, currency: 'EUR', minor_unit: 2 } };

export interface Device {
  identifier: string;
  pairing_code: string;
}

export async function switchOn(h: Harness, body: Record<string, unknown> = {}): Promise<Device> {
  const res = await h.api('POST', '/sandbox/devices', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as Device;
}

/** A device paired to a new reader (pairing delay 0 in these sandboxes). */
export async function pairedReader(
  h: Harness,
  body: Record<string, unknown> = {},
  merchant = MERCHANT,
) {
  const device = await switchOn(h, body);
  const created = await h.api('POST', readers(merchant), { pairing_code: device.pairing_code });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const reader = expectValid(ReaderSchema, created.body);
  const now = expectValid(
    ReaderSchema,
    (await h.api('GET', `${readers(merchant)}/${reader.id}`)).body,
  );
  assert.equal(now.status, 'paired');
  return { device, reader: now };
}

export async function withSandbox(options: SandboxOptions, fn: (h: Harness) => Promise<void>) {
  const h = await startSandbox(options);
  try {
    await fn(h);
  } finally {
    await h.sandbox.close();
  }
}
