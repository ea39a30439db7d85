// The sandbox's state: typed collections of plain records, kept JSON-serialisable so that a
// snapshot is `JSON.stringify(store.snapshot())`. Records hold what the provider would keep,
// never a full card number or CVV (only last 4 digits and network).

import type { CheckoutStatus } from '../../domain/checkout.ts';
// The provider's list of networks, ELV included, is the schemas' to own.
import type { CardNetwork } from '../../schemas/index.ts';

export type { CheckoutStatus };
export type TransactionStatus = 'SUCCESSFUL' | 'CANCELLED' | 'FAILED' | 'PENDING';
export type PaymentType = 'ECOM' | 'RECURRING' | 'BOLETO';
export interface CardSummary {
  last_4_digits: string;
  type: CardNetwork;
}

export interface MandateRecord {
  type: string;
  status: string;
  merchant_code: string;
}

export interface Address {
  city?: string;
  country?: string;
  line_1?: string;
  line_2?: string;
  postal_code?: string;
  state?: string;
}

export interface PersonalDetails {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  birth_date?: string;
  tax_id?: string;
  address?: Address;
}

/** What a card attempt needs to be finished later (after 3DS): no PAN, no CVV. */
export interface PendingCard {
  card: CardSummary;
  installments: number;
  /** Set when the attempt asked to tokenize the card (mandate). */
  saveCard: boolean;
  /** Token used for this attempt, when paying with a saved card. */
  token?: string;
}

/** An open customer action: a 3DS challenge or an APM bank page. */
export type PendingAction =
  | { kind: 'challenge'; md: string; paReq: string; attempt: PendingCard; settled: boolean }
  | {
      kind: 'bank';
      method: 'ideal' | 'bancontact' | 'blik';
      tx: string;
      settled: boolean;
    };

export interface CheckoutRecord {
  id: string;
  checkout_reference: string;
  amount: number;
  currency: string;
  merchant_code: string;
  pay_to_email: string;
  description?: string;
  return_url?: string;
  redirect_url?: string;
  customer_id?: string;
  purpose: 'CHECKOUT' | 'SETUP_RECURRING_PAYMENT';
  valid_until?: string;
  date: string;
  status: CheckoutStatus;
  /** Every status it had, oldest first (absent in data files written before it existed). */
  status_history?: { status: CheckoutStatus; at: string }[];
  /** Transaction ids, oldest first. */
  transaction_ids: string[];
  transaction_code?: string;
  transaction_id?: string;
  mandate?: MandateRecord;
  payment_instrument?: { token: string };
  boleto?: { barcode: string; url: string };
  pending?: PendingAction;
  /** True once an attempt reached a result the provider keeps (PAID, FAILED or a boleto). */
  processed: boolean;
}

export interface TransactionEventRecord {
  id: number;
  type: 'REFUND' | 'PAYOUT' | 'CHARGE_BACK' | 'PAYOUT_DEDUCTION';
  status: 'PENDING' | 'SCHEDULED' | 'FAILED' | 'REFUNDED' | 'SUCCESSFUL' | 'PAID_OUT';
  amount: number;
  timestamp: string;
}

export interface TransactionRecord {
  id: string;
  transaction_code: string;
  internal_id: number;
  amount: number;
  currency: string;
  timestamp: string;
  /** Last change (refund, settlement); drives the `changes_since` filter. */
  updated_at: string;
  status: TransactionStatus;
  type: 'PAYMENT' | 'REFUND';
  payment_type: PaymentType;
  entry_mode: 'CUSTOMER_ENTRY' | 'BOLETO';
  installments_count: number;
  merchant_code: string;
  user: string;
  auth_code?: string;
  card?: CardSummary;
  checkout_id?: string;
  product_summary?: string;
  client_transaction_id?: string;
  /** For a REFUND record: the payment it refunds. */
  refunded_transaction_id?: string;
  refunded_amount: number;
  events: TransactionEventRecord[];
}

export interface CustomerRecord {
  customer_id: string;
  personal_details?: PersonalDetails;
}

export interface InstrumentRecord {
  token: string;
  customer_id: string;
  active: boolean;
  type: 'card';
  card: CardSummary;
  mandate: MandateRecord;
  created_at: string;
}

/** A simulated card reader (POST /sandbox/devices): what the physical device would know. */
export interface DeviceRecord {
  identifier: string;
  model: 'solo' | 'virtual-solo';
  software_version: string;
  online: boolean;
  /** The code the device shows while unpaired; single use. */
  pairing_code?: string;
  pairing_code_expires_at?: string;
  /** The reader (pairing) this device belongs to now. */
  reader_id?: string;
  /** The reader checkout on the screen, if any. */
  checkout_id?: string;
  created_at: string;
}

export interface ReaderRecord {
  id: string;
  name: string;
  status: 'unknown' | 'processing' | 'paired' | 'expired';
  device_identifier: string;
  meta?: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** When the device confirms the pairing (if online by then). */
  confirm_at: string;
  /** When an unconfirmed pairing turns `expired`. */
  expires_at: string;
}

export type ReaderCheckoutStatus = 'waiting_for_card' | 'waiting_for_pin' | 'successful' | 'failed';

export interface ReaderCheckoutRecord {
  /** The client_transaction_id returned to the caller. */
  id: string;
  reader_id: string;
  device_identifier: string;
  merchant_code: string;
  value: number;
  currency: string;
  minor_unit: number;
  description?: string;
  card_type?: 'credit' | 'debit';
  installments?: number;
  tip_rates?: number[];
  affiliate?: { app_id: string; foreign_transaction_id: string; tags?: Record<string, unknown> };
  return_url?: string;
  status: ReaderCheckoutStatus;
  /** Why a failed checkout failed: declined, wrong PIN, terminated, or the start window ran out. */
  failure?: 'declined' | 'pin' | 'terminated' | 'timeout';
  created_at: string;
  /** End of the 60-second start window: no card by then fails the checkout. */
  start_by: string;
  /** Card presented but PIN pending: only last 4 digits and network, never the number. */
  card?: CardSummary;
  transaction_id?: string;
}

export interface OperatorRecord {
  id: number;
  username: string;
  nickname?: string;
  disabled: boolean;
  permissions: {
    create_moto_payments: boolean;
    full_transaction_history_view: boolean;
    refund_transactions: boolean;
    create_referral: boolean;
  };
  created_at: string;
  updated_at: string;
  /** When the password was last set; the password itself is never kept. */
  password_set_at: string;
}

export interface Snapshot {
  version: 1;
  checkouts: CheckoutRecord[];
  transactions: TransactionRecord[];
  customers: CustomerRecord[];
  instruments: InstrumentRecord[];
  nextInternalId: number;
  nextEventId: number;
  /** Added after version 1 shipped; absent in older data files. */
  devices?: DeviceRecord[];
  readers?: ReaderRecord[];
  readerCheckouts?: ReaderCheckoutRecord[];
  operators?: OperatorRecord[];
  /** How far the sandbox clock had been moved ahead (POST /sandbox/clock). */
  clockOffsetMs?: number;
}

/** First internal id: large like the provider's, so nobody mistakes it for an index. */
const FIRST_INTERNAL_ID = 1_700_000_001;

export class Store {
  /** Add with `addCheckout`, which keeps the reference index. */
  readonly checkouts = new Map<string, CheckoutRecord>();
  /**
   * Checkouts by checkout_reference, oldest first: the duplicate rule and the list filter
   * look here, so creating a checkout does not get slower as the sandbox fills. It holds the
   * records themselves: `addCheckout` is the only writer and only `clear` removes checkouts.
   */
  readonly #byReference = new Map<string, CheckoutRecord[]>();
  readonly transactions = new Map<string, TransactionRecord>();
  readonly customers = new Map<string, CustomerRecord>();
  readonly instruments = new Map<string, InstrumentRecord>();
  readonly devices = new Map<string, DeviceRecord>();
  readonly readers = new Map<string, ReaderRecord>();
  readonly readerCheckouts = new Map<string, ReaderCheckoutRecord>();
  readonly operators = new Map<number, OperatorRecord>();
  nextInternalId = FIRST_INTERNAL_ID;
  nextEventId = 1;

  addCheckout(checkout: CheckoutRecord): void {
    this.checkouts.set(checkout.id, checkout);
    const same = this.#byReference.get(checkout.checkout_reference);
    if (same === undefined) this.#byReference.set(checkout.checkout_reference, [checkout]);
    else same.push(checkout);
  }

  /** The checkouts with this checkout_reference, oldest first (a copy of the index's array). */
  checkoutsWithReference(reference: string): CheckoutRecord[] {
    return [...(this.#byReference.get(reference) ?? [])];
  }

  clear(): void {
    this.checkouts.clear();
    this.#byReference.clear();
    this.transactions.clear();
    this.customers.clear();
    this.instruments.clear();
    this.devices.clear();
    this.readers.clear();
    this.readerCheckouts.clear();
    this.operators.clear();
    this.nextInternalId = FIRST_INTERNAL_ID;
    this.nextEventId = 1;
  }

  snapshot(): Snapshot {
    return {
      version: 1,
      checkouts: [...this.checkouts.values()],
      transactions: [...this.transactions.values()],
      customers: [...this.customers.values()],
      instruments: [...this.instruments.values()],
      nextInternalId: this.nextInternalId,
      nextEventId: this.nextEventId,
      devices: [...this.devices.values()],
      readers: [...this.readers.values()],
      readerCheckouts: [...this.readerCheckouts.values()],
      operators: [...this.operators.values()],
    };
  }

  restore(snapshot: Snapshot): void {
    this.clear();
    for (const c of snapshot.checkouts) this.addCheckout(c);
    for (const t of snapshot.transactions) this.transactions.set(t.id, t);
    for (const c of snapshot.customers) this.customers.set(c.customer_id, c);
    for (const i of snapshot.instruments) this.instruments.set(i.token, i);
    for (const d of snapshot.devices ?? []) this.devices.set(d.identifier, d);
    for (const r of snapshot.readers ?? []) this.readers.set(r.id, r);
    for (const c of snapshot.readerCheckouts ?? []) this.readerCheckouts.set(c.id, c);
    for (const o of snapshot.operators ?? []) this.operators.set(o.id, o);
    this.nextInternalId = snapshot.nextInternalId;
    this.nextEventId = snapshot.nextEventId;
  }
}

export function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.version === 1 &&
    Array.isArray(v.checkouts) &&
    Array.isArray(v.transactions) &&
    Array.isArray(v.customers) &&
    Array.isArray(v.instruments) &&
    typeof v.nextInternalId === 'number' &&
    typeof v.nextEventId === 'number'
  );
}
