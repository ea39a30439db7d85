// Readers (a preview feature of the provider): pair a simulated device by its pairing code,
// list, get, rename (PATCH name and meta), delete, and start or terminate an in-person
// checkout on it. The device side is simulation/readers.ts and its routes control/devices.ts.
//
// Errors of the checkout and terminate actions follow the readers API of the provider's
// OpenAPI: 422 with `errors` ({ detail, type } for a state refusal, { field: [messages] } for
// validation). They also carry the flat `{ error_code, message, param }` every other sandbox
// error has, so a client written against either shape reads them. The readers' other routes
// answer like the rest of the sandbox (400 with the flat shape, 404 for an unknown reader).
//
// Limits enforced on a reader checkout (seed "Limits", OpenAPI):
//   total_amount { value > 0 integer, currency = the merchant's, minor_unit = the currency's
//   decimals (the schema's check, by the table of ../../schemas/currencies.ts: 0 for CLP, COP,
//   HUF, XOF, 3 for KWD, IQD) }; tip_rates 0.01..0.99, steps of 0.01, ascending;
//   installments 1..12 and only for merchants in Brazil, where card_type is required and
//   installments need credit; return_url HTTPS (http only to a loopback host); the device
//   online, not within another checkout's start window, and on Solo at least 3.3.24.3;
//   terminate only while the device waits for the cardholder, Solo at least 3.3.28.0.

import { Hono } from 'hono';
import { providerErrorBody } from '../../http/errors.ts';
import { empty, json } from '../../http/json.ts';
import type { ProviderErrorCode } from '../../schemas/index.ts';
import {
  describeIssue,
  type ReaderCheckoutBody,
  ReaderCheckoutBodySchema,
  ReaderCreateBodySchema,
  ReaderUpdateBodySchema,
} from '../../schemas/index.ts';
import type { RouteContext, Routes, SandboxContext, SandboxEnv } from '../context.ts';
import { ApiError, invalid, notFound, readApiJson } from '../errors.ts';
import { type Access, allow } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import {
  activeCheckout,
  advanceReader,
  finish,
  MIN_VERSION,
  meetsVersion,
  startCheckout,
} from '../simulation/readers.ts';
import type { Frozen, ReaderRecord } from '../state/records.ts';
import { parse } from '../validate.ts';
import { requireMerchant } from './merchant.ts';

const READERS_READ: Access = { scopes: ['readers.read'] };
const READERS_WRITE: Access = { scopes: ['readers.write'] };

/** A readers-API refusal: 422 with both the readers' `errors` and the flat provider fields. */
class ReaderError extends ApiError {
  readonly errors: Record<string, unknown>;
  readonly errorCode: string;

  constructor(
    errorCode: string,
    message: string,
    errors: Record<string, unknown>,
    param?: string,
    code: ProviderErrorCode = 'CONFLICT',
  ) {
    super(422, code, message, param);
    this.errorCode = errorCode;
    this.errors = errors;
  }

  override toResponse(): Response {
    const body = {
      ...providerErrorBody(this.errorCode, this.message, this.field),
      errors: this.errors,
    };
    return json(body, this.status, this.headers);
  }
}

const stateError = (type: string, detail: string) =>
  new ReaderError(type, detail, { detail, type });

const fieldError = (param: string, problem: string, code: 'MISSING' | 'INVALID' = 'INVALID') =>
  new ReaderError(code, `${param} ${problem}`, { [param]: [problem] }, param, code);

function findReader(c: RouteContext): Frozen<ReaderRecord> {
  const ctx = c.env.sandbox;
  requireMerchant(c);
  const reader = ctx.store.get('readers', c.req.param('id')!);
  if (!reader) throw notFound('Reader not found');
  advanceReader(ctx, reader);
  return reader;
}

function readerJson(ctx: SandboxContext, r: Frozen<ReaderRecord>): Record<string, unknown> {
  const device = ctx.store.get('devices', r.device_identifier);
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    device: { identifier: r.device_identifier, model: device?.model ?? 'solo' },
    ...(r.meta !== undefined && { meta: r.meta }),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function list(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  requireMerchant(c);
  const readers = ctx.store
    .list('readers')
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const r of readers) advanceReader(ctx, r);
  return json({ items: readers.map((r) => readerJson(ctx, r)) });
}

async function create(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  requireMerchant(c);
  const body = parse(ReaderCreateBodySchema, await readApiJson(c.req.raw));
  const code = body.pairing_code.toUpperCase();
  const device = ctx.store.list('devices').find((d) => d.pairing_code === code);
  if (!device) throw invalid('pairing_code', 'pairing_code is shown on no device');
  if (Date.parse(device.pairing_code_expires_at ?? '') <= ctx.clock.now()) {
    throw invalid('pairing_code', 'pairing_code has expired; start pairing on the device again');
  }
  const now = ctx.clock.now();
  const reader = ctx.store.transact(() => {
    const paired = ctx.store.insert('readers', {
      name:
        body.name ?? `${device.model === 'solo' ? 'Solo' : 'Virtual Solo'} ${device.identifier}`,
      status: 'processing',
      device_identifier: device.identifier,
      created_at: ctx.clock.iso(now),
      updated_at: ctx.clock.iso(now),
      confirm_at: ctx.clock.iso(now + ctx.config.readers.pairingDelayMs),
      expires_at: ctx.clock.iso(now + ctx.config.readers.pairingCodeTtlMs),
      ...(body.meta !== undefined && { meta: body.meta }),
    });
    // The code is single use: the device now belongs to this pairing.
    ctx.store.update('devices', device.identifier, (d) => {
      delete d.pairing_code;
      delete d.pairing_code_expires_at;
      d.reader_id = paired.id;
    });
    return paired;
  });
  return json(readerJson(ctx, reader), 201);
}

const retrieve = (c: RouteContext) => json(readerJson(c.env.sandbox, findReader(c)));

async function update(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(ReaderUpdateBodySchema, await readApiJson(c.req.raw));
  // Looked up after the body: while it arrived, the reader may have been deleted.
  const found = findReader(c);
  const reader = ctx.store.update('readers', found.id, (r) => {
    if (body.name !== undefined) r.name = body.name;
    if (body.meta !== undefined) r.meta = body.meta;
    r.updated_at = ctx.clock.iso();
  });
  return json(readerJson(ctx, reader));
}

function remove(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const reader = findReader(c);
  const device = ctx.store.get('devices', reader.device_identifier);
  ctx.store.transact(() => {
    if (device?.reader_id === reader.id) {
      // Unpairing mid-payment cancels it, as switching off the reader would.
      const checkout = activeCheckout(ctx, device);
      if (checkout) finish(ctx, checkout, 'failed', 'terminated');
      ctx.store.update('devices', device.identifier, (d) => {
        delete d.reader_id;
      });
    }
    ctx.store.remove('readers', reader.id);
  });
  // The provider answers 200 with an empty body.
  return empty(200);
}

function pairedDevice(ctx: SandboxContext, reader: Frozen<ReaderRecord>) {
  if (reader.status !== 'paired') {
    throw stateError('READER_NOT_PAIRED', `The reader is ${reader.status}, not paired.`);
  }
  const device = ctx.store.get('devices', reader.device_identifier);
  if (!device || device.reader_id !== reader.id) {
    throw stateError('READER_NOT_PAIRED', 'The reader has no paired device.');
  }
  if (!device.online) throw stateError('READER_OFFLINE', 'The device is offline.');
  return device;
}

function validateCheckoutBody(ctx: SandboxContext, input: unknown) {
  const result = ReaderCheckoutBodySchema.safeParse(input);
  if (!result.success) {
    const issue = describeIssue(result.error, input);
    // describeIssue's message starts with the field name; the readers' list holds the problem.
    const problem = issue.message.startsWith(`${issue.param} `)
      ? issue.message.slice(issue.param.length + 1)
      : issue.message;
    throw fieldError(issue.param, problem, issue.code);
  }
  const body = result.data;
  const { currency } = body.total_amount;
  const merchantCurrency = ctx.config.merchant.currency;
  if (currency !== merchantCurrency) {
    throw fieldError(
      'total_amount.currency',
      `this merchant can only accept '${merchantCurrency}'`,
    );
  }
  for (const rate of body.tip_rates ?? []) {
    if (Math.abs(rate * 100 - Math.round(rate * 100)) > 1e-9) {
      throw fieldError('tip_rates', 'must be percentages in steps of 0.01');
    }
  }
  const brazil = ctx.config.country === 'BR';
  if (body.installments !== undefined && !brazil) {
    throw fieldError('installments', 'not allowed: installments are for merchants in Brazil');
  }
  if (brazil && body.card_type === undefined) {
    throw fieldError('card_type', 'is required for merchants in Brazil', 'MISSING');
  }
  if ((body.installments ?? 1) > 1 && body.card_type !== 'credit') {
    throw fieldError('installments', 'need card_type credit');
  }
  return body;
}

/** The affiliate key authenticates the calling app; like an API key it is not kept. */
function withoutKey(affiliate: NonNullable<ReaderCheckoutBody['affiliate']>) {
  const { key: _key, ...kept } = affiliate;
  return kept;
}

async function checkout(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = validateCheckoutBody(ctx, await readApiJson(c.req.raw));
  const reader = findReader(c);
  const device = pairedDevice(ctx, reader);
  if (!meetsVersion(device, 'checkout')) {
    throw stateError(
      'READER_SOFTWARE_OUTDATED',
      `The Solo needs software ${MIN_VERSION.checkout} or later (it runs ${device.software_version}).`,
    );
  }
  if (activeCheckout(ctx, device)) {
    throw stateError('READER_BUSY', 'A pending transaction already exists for this device');
  }
  const now = ctx.clock.now();
  const record = startCheckout(ctx, {
    reader_id: reader.id,
    device_identifier: device.identifier,
    merchant_code: ctx.config.merchantCode,
    value: body.total_amount.value,
    currency: body.total_amount.currency,
    minor_unit: body.total_amount.minor_unit,
    status: 'waiting_for_card',
    created_at: ctx.clock.iso(now),
    start_by: ctx.clock.iso(now + ctx.config.readers.startWindowMs),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.card_type !== undefined && { card_type: body.card_type }),
    ...(body.installments !== undefined && { installments: body.installments }),
    ...(body.tip_rates !== undefined && { tip_rates: body.tip_rates }),
    ...(body.return_url !== undefined && { return_url: body.return_url }),
    ...(body.affiliate !== undefined && { affiliate: withoutKey(body.affiliate) }),
  });
  return json({ data: { client_transaction_id: record.id } }, 201);
}

function terminate(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const reader = findReader(c);
  const device = pairedDevice(ctx, reader);
  if (!meetsVersion(device, 'terminate')) {
    throw stateError(
      'READER_SOFTWARE_OUTDATED',
      `The Solo needs software ${MIN_VERSION.terminate} or later to terminate (it runs ${device.software_version}).`,
    );
  }
  const active = activeCheckout(ctx, device);
  if (!active) {
    throw stateError(
      'READER_NOT_WAITING',
      'The device is not waiting for cardholder action; there is nothing to terminate.',
    );
  }
  finish(ctx, active, 'failed', 'terminated');
  return empty(202);
}

const base = '/v0.1/merchants/:merchant_code/readers';

export const readerRoutes: Routes = new Hono<SandboxEnv>()
  .get(base, allow(READERS_READ), list)
  .post(base, allow(READERS_WRITE), capBody, create)
  .get(`${base}/:id`, allow(READERS_READ), retrieve)
  .patch(`${base}/:id`, allow(READERS_WRITE), capBody, update)
  .delete(`${base}/:id`, allow(READERS_WRITE), capBody, remove)
  .post(`${base}/:id/checkout`, allow(READERS_WRITE), capBody, checkout)
  .post(`${base}/:id/terminate`, allow(READERS_WRITE), capBody, terminate);
