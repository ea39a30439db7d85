// /sandbox/devices: switch on simulated card readers and act as the person in front of them.
// Part of the simulator's control surface (any valid test key), never of the provider API.
//
//   POST /sandbox/devices                          {model?, software_version?} -> 201 {identifier, pairing_code, ...}
//   GET  /sandbox/devices                          every device's screen
//   GET  /sandbox/devices/{identifier}             one device's screen
//   POST /sandbox/devices/{identifier}/pairing-code    show a new code (after delete or expiry)
//   POST /sandbox/devices/{identifier}/confirm-pairing confirm a processing pairing now
//   POST /sandbox/devices/{identifier}/present-card    {card_number?, pin?} tap/insert a card
//   POST /sandbox/devices/{identifier}/enter-pin       {correct?} finish a PIN entry
//   POST /sandbox/devices/{identifier}/offline | /online
//
// A presented card follows the sandbox's card table: the declined amounts (11.00, 42.01, 42.76,
// 42.91, to the currency's minor unit) and the technical-error cards fail, any other Luhn-valid number succeeds. Only the
// last four digits and the network are kept; the number itself is never stored or logged.

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { json } from '../../http/json.ts';
import { ReaderModelSchema } from '../../schemas/index.ts';
import type { RouteContext, Routes, SandboxContext, SandboxEnv } from '../context.ts';
import { ApiError, invalid, notFound, readApiJson } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import {
  detectNetwork,
  isDeclinedAmount,
  luhnValid,
  TECHNICAL_ERROR_CARDS,
} from '../simulation/cards.ts';
import {
  activeCheckout,
  advanceReader,
  decimalAmount,
  deviceJson,
  finish,
  newPairingCode,
} from '../simulation/readers.ts';
import type { DeviceRecord, Frozen, ReaderCheckoutRecord } from '../state/records.ts';
import { parse } from '../validate.ts';

/** Recent enough for every seed limit; pass an older one to test the minimum versions. */
const DEFAULT_SOFTWARE = '3.3.39.0';

const DeviceBodySchema = z.object({
  model: z.optional(ReaderModelSchema),
  software_version: z.optional(
    z.string().check(z.regex(/^\d+(\.\d+){1,3}$/, { error: 'must look like 3.3.24.3' })),
  ),
});

const PresentCardSchema = z.object({
  card_number: z.optional(
    z.string().check(z.regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits' })),
  ),
  pin: z.optional(z.boolean()),
});

const EnterPinSchema = z.object({ correct: z.optional(z.boolean()) });

/** A card the sandbox's table pays without a challenge. */
const DEFAULT_CARD = '4200000000000091';

const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);

function findDevice(ctx: SandboxContext, identifier: string): Frozen<DeviceRecord> {
  const device = ctx.store.get('devices', identifier);
  if (!device) throw notFound('Device not found');
  return device;
}

/** A fresh pairing code and its expiry, as the device shows them. */
function newCode(ctx: SandboxContext) {
  return {
    pairing_code: newPairingCode(),
    pairing_code_expires_at: ctx.clock.iso(ctx.clock.now() + ctx.config.readers.pairingCodeTtlMs),
  };
}

async function switchOn(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(DeviceBodySchema, await readApiJson(c.req.raw));
  const model = body.model ?? 'solo';
  const device = ctx.store.insert('devices', {
    model,
    software_version: body.software_version ?? DEFAULT_SOFTWARE,
    online: true,
    created_at: ctx.clock.iso(),
    ...newCode(ctx),
  });
  return json(deviceJson(ctx, device), 201);
}

function listDevices(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  return json(ctx.store.list('devices').map((d) => deviceJson(ctx, d)));
}

function getDevice(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  return json(deviceJson(ctx, findDevice(ctx, c.req.param('identifier')!)));
}

/** A new code for an unpaired device (after its reader was deleted or its pairing expired). */
function pairingCode(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const device = findDevice(ctx, c.req.param('identifier')!);
  const reader = device.reader_id ? ctx.store.get('readers', device.reader_id) : undefined;
  if (reader) advanceReader(ctx, reader);
  if (device.reader_id !== undefined && ctx.store.has('readers', device.reader_id)) {
    throw conflict('The device is paired; delete its reader first');
  }
  const code = newCode(ctx);
  const shown = ctx.store.update('devices', device.identifier, (d) => Object.assign(d, code));
  return json(deviceJson(ctx, shown), 201);
}

function confirmPairing(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const device = findDevice(ctx, c.req.param('identifier')!);
  if (!device.online) throw conflict('The device is offline and cannot confirm');
  const reader = device.reader_id ? ctx.store.get('readers', device.reader_id) : undefined;
  if (reader) advanceReader(ctx, reader);
  if (reader?.status !== 'processing') {
    throw conflict('The device has no pairing waiting for confirmation');
  }
  const confirmed = ctx.store.update('readers', reader.id, (r) => {
    r.confirm_at = ctx.clock.iso();
  });
  advanceReader(ctx, confirmed);
  return json(deviceJson(ctx, device));
}

function waitingCheckout(
  ctx: SandboxContext,
  device: Frozen<DeviceRecord>,
  status: ReaderCheckoutRecord['status'],
): Frozen<ReaderCheckoutRecord> {
  if (!device.online) throw conflict('The device is offline');
  const checkout = activeCheckout(ctx, device);
  if (!checkout || checkout.status !== status) {
    throw conflict(`The device is not ${status.replaceAll('_', ' ')}`);
  }
  return checkout;
}

async function presentCard(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(PresentCardSchema, await readApiJson(c.req.raw));
  const device = findDevice(ctx, c.req.param('identifier')!);
  const checkout = waitingCheckout(ctx, device, 'waiting_for_card');
  const number = body.card_number ?? DEFAULT_CARD;
  if (!luhnValid(number)) throw invalid('card_number', 'card_number fails the Luhn check');
  const card = { last_4_digits: number.slice(-4), type: detectNetwork(number) };
  if (body.pin === true) {
    ctx.store.update('readerCheckouts', checkout.id, (record) => {
      record.card = card;
      record.status = 'waiting_for_pin';
    });
  } else {
    const declined =
      TECHNICAL_ERROR_CARDS.has(number) ||
      isDeclinedAmount(decimalAmount(checkout), checkout.currency);
    ctx.store.transact(() => {
      ctx.store.update('readerCheckouts', checkout.id, (record) => {
        record.card = card;
      });
      finish(ctx, checkout, declined ? 'failed' : 'successful', declined ? 'declined' : undefined);
    });
  }
  return json({ ...deviceJson(ctx, device), result: resultOf(checkout) });
}

async function enterPin(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(EnterPinSchema, await readApiJson(c.req.raw));
  const device = findDevice(ctx, c.req.param('identifier')!);
  const checkout = waitingCheckout(ctx, device, 'waiting_for_pin');
  if (body.correct === false) {
    finish(ctx, checkout, 'failed', 'pin');
  } else {
    const declined = isDeclinedAmount(decimalAmount(checkout), checkout.currency);
    finish(ctx, checkout, declined ? 'failed' : 'successful', declined ? 'declined' : undefined);
  }
  return json({ ...deviceJson(ctx, device), result: resultOf(checkout) });
}

/** The outcome of the checkout just handled, for the caller's convenience. */
function resultOf(c: Frozen<ReaderCheckoutRecord>): Record<string, unknown> {
  return {
    client_transaction_id: c.id,
    status: c.status,
    ...(c.failure !== undefined && { failure: c.failure }),
    ...(c.transaction_id !== undefined && { transaction_id: c.transaction_id }),
  };
}

function setOnline(online: boolean) {
  return (c: RouteContext): Response => {
    const ctx = c.env.sandbox;
    const device = findDevice(ctx, c.req.param('identifier')!);
    // Settle what happened under the old connectivity first: a pairing that expired while
    // offline must not be confirmed by coming back online.
    const reader = device.reader_id ? ctx.store.get('readers', device.reader_id) : undefined;
    if (reader) advanceReader(ctx, reader);
    ctx.store.update('devices', device.identifier, (d) => {
      d.online = online;
    });
    if (reader) advanceReader(ctx, reader);
    return json(deviceJson(ctx, device));
  };
}

const base = '/sandbox/devices';

const control = allow(CONTROL);
const device = `${base}/:identifier`;

export const deviceRoutes: Routes = new Hono<SandboxEnv>()
  .post(base, control, capBody, switchOn)
  .get(base, control, listDevices)
  .get(device, control, getDevice)
  .post(`${device}/pairing-code`, control, capBody, pairingCode)
  .post(`${device}/confirm-pairing`, control, capBody, confirmPairing)
  .post(`${device}/present-card`, control, capBody, presentCard)
  .post(`${device}/enter-pin`, control, capBody, enterPin)
  .post(`${device}/offline`, control, capBody, setOnline(false))
  .post(`${device}/online`, control, capBody, setOnline(true));
