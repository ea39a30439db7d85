// The simulated card readers' behaviour, shared by the readers API and the /sandbox/devices
// control routes.
//
// Time-driven changes are computed when a record is read ("advanced"), not by timers, so they
// survive a restart with --data and cost nothing while nobody looks. Time is the sandbox
// clock's, so moving it (POST /sandbox/clock) pairs, lapses and times out at once:
//   reader   processing --(device online, pairingDelayMs after creation)--> paired
//            processing --(not confirmed within pairingCodeTtlMs)-------> expired (device unpaired)
//   checkout waiting_for_card --(no card within startWindowMs)--> failed (timeout)
// The one exception is the start-window timeout of a checkout with a return_url: its failed
// result must reach the merchant even if nobody asks, so a timer on the sandbox clock (unref'd,
// checked against the live record) advances it once the window ends.
//
// Device screen: idle -> waiting_for_card (checkout accepted) -> [waiting_for_pin] -> idle with
// a result. A result is a transaction in the store (client_transaction_id = the checkout id)
// and, with a return_url, a POST of the provider's ReaderCheckoutStatusChange body.

import { randomBytes, randomUUID } from 'node:crypto';
import type { SandboxContext } from '../context.ts';
import { transactionCode } from './payments.ts';
import type {
  CardSummary,
  DeviceRecord,
  ReaderCheckoutRecord,
  ReaderRecord,
  TransactionRecord,
} from '../state/records.ts';

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += alphabet[b % alphabet.length];
  return out;
}

/** 8 characters, letters and digits without the look-alikes (0/O, 1/I): typed from a screen. */
export const newPairingCode = () => randomString(ALPHANUMERIC, 8);
/** `rdr_` + 26 characters: the provider's 30-character reader id form. */
export const newReaderId = () => `rdr_${randomString(CROCKFORD, 26)}`;
/** Serial-number-like, e.g. U1SB7K2Q9-SB (solo) or VS4M8X2NA-SB (virtual). */
export const newDeviceIdentifier = (model: DeviceRecord['model']) =>
  `${model === 'solo' ? 'U1' : 'VS'}${randomString(ALPHANUMERIC, 7)}-SB`;

/** The seed's minimum Solo software versions; the virtual model has none. */
export const MIN_VERSION = { checkout: '3.3.24.3', terminate: '3.3.28.0' } as const;

/** Compares dotted versions numerically: 3.3.28.0 > 3.3.9.9. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export function meetsVersion(device: DeviceRecord, action: keyof typeof MIN_VERSION): boolean {
  return (
    device.model !== 'solo' || compareVersions(device.software_version, MIN_VERSION[action]) >= 0
  );
}

/** Applies the pairing transitions that are due. */
export function advanceReader(
  ctx: SandboxContext,
  reader: ReaderRecord,
  now = ctx.clock.now(),
): void {
  if (reader.status !== 'processing') return;
  const device = ctx.store.devices.get(reader.device_identifier);
  const confirmAt = Date.parse(reader.confirm_at);
  const expiresAt = Date.parse(reader.expires_at);
  if (device?.online && now >= confirmAt && confirmAt < expiresAt) {
    reader.status = 'paired';
    reader.updated_at = ctx.clock.iso(Math.max(confirmAt, Date.parse(reader.created_at)));
    ctx.changed();
  } else if (now >= expiresAt) {
    reader.status = 'expired';
    reader.updated_at = ctx.clock.iso(expiresAt);
    if (device?.reader_id === reader.id) delete device.reader_id;
    ctx.changed();
  }
}

const WAITING = new Set(['waiting_for_card', 'waiting_for_pin']);
export const isWaiting = (c: ReaderCheckoutRecord) => WAITING.has(c.status);

/** Fails a checkout whose start window ended without a card. */
export function advanceCheckout(
  ctx: SandboxContext,
  checkout: ReaderCheckoutRecord,
  now = ctx.clock.now(),
): void {
  if (checkout.status === 'waiting_for_card' && now >= Date.parse(checkout.start_by)) {
    finish(ctx, checkout, 'failed', 'timeout');
  }
}

/** The checkout on the device's screen, after due transitions; undefined when idle. */
export function activeCheckout(
  ctx: SandboxContext,
  device: DeviceRecord,
): ReaderCheckoutRecord | undefined {
  if (device.checkout_id === undefined) return undefined;
  const checkout = ctx.store.readerCheckouts.get(device.checkout_id);
  if (checkout) advanceCheckout(ctx, checkout);
  return checkout && isWaiting(checkout) ? checkout : undefined;
}

export function startCheckout(ctx: SandboxContext, checkout: ReaderCheckoutRecord): void {
  ctx.store.readerCheckouts.set(checkout.id, checkout);
  const device = ctx.store.devices.get(checkout.device_identifier);
  if (device) device.checkout_id = checkout.id;
  ctx.changed();
  if (checkout.return_url === undefined) return;
  const delay = Math.max(0, Date.parse(checkout.start_by) - ctx.clock.now());
  ctx.clock.setTimer(
    () => {
      // After a reset the id names nothing, or another record: only this very record may move.
      if (ctx.store.readerCheckouts.get(checkout.id) === checkout) advanceCheckout(ctx, checkout);
    },
    delay,
    { unref: true },
  );
}

/** Amount in major units, e.g. { value: 1050, minor_unit: 2 } -> 10.5. */
export const decimalAmount = (c: ReaderCheckoutRecord) => c.value / 10 ** c.minor_unit;

/** Ends a checkout: records the transaction, frees the device, posts the result. */
export function finish(
  ctx: SandboxContext,
  checkout: ReaderCheckoutRecord,
  status: 'successful' | 'failed',
  failure?: ReaderCheckoutRecord['failure'],
): TransactionRecord {
  const now = ctx.clock.iso();
  const card: CardSummary | undefined = checkout.card;
  const txn: TransactionRecord = {
    id: randomUUID(),
    transaction_code: transactionCode(),
    internal_id: ctx.store.nextInternalId++,
    amount: decimalAmount(checkout),
    currency: checkout.currency,
    timestamp: now,
    updated_at: now,
    status: status === 'successful' ? 'SUCCESSFUL' : 'FAILED',
    type: 'PAYMENT',
    // The seed's transaction enums have no in-person values (POS, CHIP, CONTACTLESS), and the
    // schemas follow the seed; these keep every transaction response valid.
    payment_type: 'ECOM',
    entry_mode: 'CUSTOMER_ENTRY',
    installments_count: checkout.installments ?? 1,
    merchant_code: checkout.merchant_code,
    user: ctx.config.payToEmail,
    client_transaction_id: checkout.id,
    refunded_amount: 0,
    events: [],
  };
  if (card) txn.card = card;
  if (status === 'successful') {
    txn.auth_code = String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0');
  }
  if (checkout.description !== undefined) txn.product_summary = checkout.description;
  ctx.store.transactions.set(txn.id, txn);

  checkout.status = status;
  if (failure !== undefined) checkout.failure = failure;
  checkout.transaction_id = txn.id;
  const device = ctx.store.devices.get(checkout.device_identifier);
  if (device?.checkout_id === checkout.id) delete device.checkout_id;
  ctx.changed();

  if (checkout.return_url !== undefined) {
    ctx.webhooks.send(checkout.return_url, {
      id: randomUUID(),
      event_type: 'solo.transaction.updated',
      payload: {
        client_transaction_id: checkout.id,
        merchant_code: checkout.merchant_code,
        status,
        transaction_id: txn.id,
      },
      timestamp: now,
    });
  }
  return txn;
}

/** What the control routes show about a device: its screen, never card data. */
export function deviceJson(ctx: SandboxContext, device: DeviceRecord): Record<string, unknown> {
  const reader = device.reader_id ? ctx.store.readers.get(device.reader_id) : undefined;
  if (reader) advanceReader(ctx, reader);
  const checkout = activeCheckout(ctx, device);
  const paired = reader?.status === 'paired' && device.reader_id !== undefined;
  const codeValid =
    device.pairing_code !== undefined &&
    Date.parse(device.pairing_code_expires_at ?? '') > ctx.clock.now();
  return {
    identifier: device.identifier,
    model: device.model,
    software_version: device.software_version,
    online: device.online,
    screen: checkout ? checkout.status : paired ? 'idle' : codeValid ? 'pairing' : 'unpaired',
    ...(codeValid && {
      pairing_code: device.pairing_code,
      pairing_code_expires_at: device.pairing_code_expires_at,
    }),
    ...(device.reader_id !== undefined && reader && { reader_id: device.reader_id }),
    ...(checkout && {
      checkout: {
        client_transaction_id: checkout.id,
        status: checkout.status,
        total_amount: {
          value: checkout.value,
          currency: checkout.currency,
          minor_unit: checkout.minor_unit,
        },
        start_by: checkout.start_by,
      },
    }),
    created_at: device.created_at,
  };
}
