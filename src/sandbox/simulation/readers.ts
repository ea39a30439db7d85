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

import type { SandboxContext } from '../context.ts';
import { CODE_ALPHABET, randomString } from '../state/ids.ts';
import type {
  DeviceRecord,
  Frozen,
  ReaderCheckoutRecord,
  ReaderRecord,
  TransactionRecord,
} from '../state/records.ts';
import { createTransaction } from './payments.ts';

/** 8 characters, letters and digits without the look-alikes: typed from a screen. */
export const newPairingCode = (): string => randomString(CODE_ALPHABET, 8);

/** The seed's minimum Solo software versions; the virtual model has none. */
export const MIN_VERSION = { checkout: '3.3.24.3', terminate: '3.3.28.0' } as const;

/** Compares dotted versions numerically: 3.3.28.0 > 3.3.9.9. */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export function meetsVersion(
  device: Frozen<DeviceRecord>,
  action: keyof typeof MIN_VERSION,
): boolean {
  return (
    device.model !== 'solo' || compareVersions(device.software_version, MIN_VERSION[action]) >= 0
  );
}

/** Applies the pairing transitions that are due. */
export function advanceReader(
  ctx: SandboxContext,
  reader: Frozen<ReaderRecord>,
  now = ctx.clock.now(),
): void {
  if (reader.status !== 'processing') return;
  const { store } = ctx;
  const device = store.get('devices', reader.device_identifier);
  const confirmAt = Date.parse(reader.confirm_at);
  const expiresAt = Date.parse(reader.expires_at);
  if (device?.online && now >= confirmAt && confirmAt < expiresAt) {
    store.update('readers', reader.id, (r) => {
      r.status = 'paired';
      r.updated_at = ctx.clock.iso(Math.max(confirmAt, Date.parse(r.created_at)));
    });
  } else if (now >= expiresAt) {
    store.transact(() => {
      store.update('readers', reader.id, (r) => {
        r.status = 'expired';
        r.updated_at = ctx.clock.iso(expiresAt);
      });
      if (device?.reader_id === reader.id) {
        store.update('devices', device.identifier, (d) => {
          delete d.reader_id;
        });
      }
    });
  }
}

const WAITING = new Set(['waiting_for_card', 'waiting_for_pin']);
const isWaiting = (c: Frozen<ReaderCheckoutRecord>) => WAITING.has(c.status);

/** Fails a checkout whose start window ended without a card. */
function advanceCheckout(
  ctx: SandboxContext,
  checkout: Frozen<ReaderCheckoutRecord>,
  now = ctx.clock.now(),
): void {
  if (checkout.status === 'waiting_for_card' && now >= Date.parse(checkout.start_by)) {
    finish(ctx, checkout, 'failed', 'timeout');
  }
}

/** The checkout on the device's screen, after due transitions; undefined when idle. */
export function activeCheckout(
  ctx: SandboxContext,
  device: Frozen<DeviceRecord>,
): Frozen<ReaderCheckoutRecord> | undefined {
  if (device.checkout_id === undefined) return undefined;
  const checkout = ctx.store.get('readerCheckouts', device.checkout_id);
  if (checkout) advanceCheckout(ctx, checkout);
  return checkout && isWaiting(checkout) ? checkout : undefined;
}

/**
 * A checkout with a return_url must report its timeout even if nobody asks: a timer on the
 * sandbox clock advances it once its start window ends.
 */
function armStartWindow(ctx: SandboxContext, checkout: Frozen<ReaderCheckoutRecord>): void {
  if (checkout.return_url === undefined) return;
  const delay = Math.max(0, Date.parse(checkout.start_by) - ctx.clock.now());
  ctx.clock.setTimer(
    () => {
      // After a reset the id names nothing, or another record: only this very record may move.
      if (ctx.store.get('readerCheckouts', checkout.id) === checkout) {
        advanceCheckout(ctx, checkout);
      }
    },
    delay,
    { unref: true },
  );
}

/** After a restart on the data file: the start windows still open are watched again. */
export function resumeStartWindows(ctx: SandboxContext): void {
  for (const checkout of ctx.store.values('readerCheckouts')) {
    if (checkout.status === 'waiting_for_card') armStartWindow(ctx, checkout);
  }
}

export function startCheckout(
  ctx: SandboxContext,
  draft: Omit<ReaderCheckoutRecord, 'id'>,
): Frozen<ReaderCheckoutRecord> {
  const { store } = ctx;
  const checkout = store.transact(() => {
    const started = store.insert('readerCheckouts', draft);
    if (store.has('devices', started.device_identifier)) {
      store.update('devices', started.device_identifier, (d) => {
        d.checkout_id = started.id;
      });
    }
    return started;
  });
  armStartWindow(ctx, checkout);
  return checkout;
}

/** Amount in major units, e.g. { value: 1050, minor_unit: 2 } -> 10.5. */
export const decimalAmount = (c: Frozen<ReaderCheckoutRecord>) => c.value / 10 ** c.minor_unit;

/** Ends a checkout: records the transaction, frees the device, posts the result. */
export function finish(
  ctx: SandboxContext,
  checkout: Frozen<ReaderCheckoutRecord>,
  status: 'successful' | 'failed',
  failure?: ReaderCheckoutRecord['failure'],
): Frozen<TransactionRecord> {
  const { store } = ctx;
  const now = ctx.clock.iso();
  return store.transact(() => {
    const txn = createTransaction(ctx, {
      amount: decimalAmount(checkout),
      currency: checkout.currency,
      status: status === 'successful' ? 'SUCCESSFUL' : 'FAILED',
      // The seed's transaction enums have no in-person values (POS, CHIP, CONTACTLESS), and
      // the schemas follow the seed; these keep every transaction response valid.
      payment_type: 'ECOM',
      entry_mode: 'CUSTOMER_ENTRY',
      installments_count: checkout.installments ?? 1,
      merchant_code: checkout.merchant_code,
      user: ctx.config.payToEmail,
      client_transaction_id: checkout.id,
      ...(checkout.card && { card: { ...checkout.card } }),
      ...(checkout.description !== undefined && { product_summary: checkout.description }),
    });
    store.update('readerCheckouts', checkout.id, (c) => {
      c.status = status;
      if (failure !== undefined) c.failure = failure;
      c.transaction_id = txn.id;
    });
    const device = store.get('devices', checkout.device_identifier);
    if (device?.checkout_id === checkout.id) {
      store.update('devices', device.identifier, (d) => {
        delete d.checkout_id;
      });
    }
    if (checkout.return_url !== undefined) {
      ctx.webhooks.send(checkout.return_url, {
        id: crypto.randomUUID(),
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
  });
}

/** A simulated device as the control routes and the dashboard show it: its screen, no card data. */
export interface DeviceView {
  identifier: string;
  model: DeviceRecord['model'];
  software_version: string;
  online: boolean;
  screen: ReaderCheckoutRecord['status'] | 'idle' | 'pairing' | 'unpaired';
  pairing_code?: string | undefined;
  pairing_code_expires_at?: string | undefined;
  reader_id?: string;
  checkout?: {
    client_transaction_id: string;
    status: ReaderCheckoutRecord['status'];
    total_amount: { value: number; currency: string; minor_unit: number };
    start_by: string;
  };
  created_at: string;
}

export function deviceJson(ctx: SandboxContext, device: Frozen<DeviceRecord>): DeviceView {
  const reader = device.reader_id ? ctx.store.get('readers', device.reader_id) : undefined;
  if (reader) advanceReader(ctx, reader);
  const checkout = activeCheckout(ctx, device);
  const paired = reader?.status === 'paired' && device.reader_id !== undefined;
  const codeValid =
    device.pairing_code !== undefined &&
    Date.parse(device.pairing_code_expires_at ?? '') > ctx.clock.now();
  const view: DeviceView = {
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
  return view;
}
