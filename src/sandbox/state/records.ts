// The sandbox's records: plain JSON-serialisable objects, one interface per collection of the
// store (store.ts). Records hold what the provider would keep, never a full card number or CVV
// (only the last four digits and the network). The provider's own words (statuses, payment
// types, personal details) come from src/schemas; a record names its own type only where its
// shape differs from the provider's answer.

import type { CheckoutStatus } from '../../domain/checkout.ts';
import type {
  PaymentMethodId,
  PersonalDetails,
  ReaderModel,
  ReaderStatus,
  TransactionPaymentType,
  TransactionStatus,
} from '../../schemas/index.ts';
import type { CardNetwork } from '../../shared/card-networks.ts';
import { isRecord } from '../../shared/record.ts';

/**
 * What the sandbox keeps of a card: both fields always set. The provider's `CardSummary`
 * (src/schemas) allows either to be absent or null in an answer; a record never lacks them.
 */
export interface KeptCard {
  last_4_digits: string;
  type: CardNetwork;
}

export interface MandateRecord {
  type: string;
  status: string;
  merchant_code: string;
}

/** What a card attempt needs to be finished later (after 3DS): no PAN, no CVV. */
export interface PendingCard {
  card: KeptCard;
  installments: number;
  /** Set when the attempt asked to tokenize the card (mandate). */
  saveCard: boolean;
  /** Token used for this attempt, when paying with a saved card. */
  token?: string;
}

/** An open customer action: a 3DS challenge or an APM bank page. */
export type PendingAction =
  | { kind: 'challenge'; md: string; paReq: string; attempt: PendingCard; settled: boolean }
  | { kind: 'bank'; method: PaymentMethodId; tx: string; settled: boolean };

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
  payment_type: TransactionPaymentType;
  entry_mode: 'CUSTOMER_ENTRY' | 'BOLETO';
  installments_count: number;
  merchant_code: string;
  user: string;
  auth_code?: string;
  card?: KeptCard;
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
  card: KeptCard;
  mandate: MandateRecord;
  created_at: string;
}

/** A simulated card reader (POST /sandbox/devices): what the physical device would know. */
export interface DeviceRecord {
  identifier: string;
  model: ReaderModel;
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
  status: ReaderStatus;
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
  card?: KeptCard;
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

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryAttempt {
  /** Sandbox time the attempt started. */
  at: string;
  /** The merchant's HTTP status, when it answered. */
  status?: number;
  /** Why there was no answer: ECONNREFUSED, timeout, ... */
  error?: string;
  durationMs: number;
  /** A non-2xx answer's `Retry-After`, as sent. */
  retryAfter?: string;
  /** Sandbox time the next attempt is due, when there is one. */
  nextAt?: string;
}

export type WebhookFaultKind = 'drop' | 'duplicate' | 'delay' | 'reorder';

/** One outgoing notification (simulation/webhooks.ts) and every attempt to send it. */
export interface DeliveryRecord {
  id: string;
  url: string;
  payload: unknown;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  created_at: string;
  /** The webhook fault that applied to it. */
  fault?: WebhookFaultKind;
  /** Sandbox time a `delay` fault holds it until: its first attempt is due then. */
  due_at?: string;
  /** The delivery this one sends again (a replay). */
  replay_of?: string;
  /** The delivery this one copies (a `duplicate` fault). */
  duplicate_of?: string;
}

/** A fault for the next deliveries (`POST /sandbox/webhook-faults`). */
export interface WebhookFaultRecord {
  id: string;
  kind: WebhookFaultKind;
  /** Used by `delay`. */
  delayMs: number;
  /** Deliveries still to affect. */
  remaining: number;
}

/** What the outcome control makes of a card payment, in place of the card table's outcome. */
export type CardOutcomeOverride = 'declined' | 'challenge' | 'technical_error' | 'paid';

/** The next `remaining` card payments that match get `outcome` (POST /sandbox/outcomes). */
export interface OutcomeRecord {
  id: string;
  outcome: CardOutcomeOverride;
  /** A whole card number, or its last 4 digits; any card when absent. */
  card?: string;
  /** In major units; any amount when absent. */
  amount?: number;
  /** Payments still to affect. */
  remaining: number;
}

export type FaultKind = 'latency' | 'error' | 'drop';

/** A fault on the provider routes (`POST /sandbox/faults`). */
export interface FaultRecord {
  id: string;
  method?: string;
  /** A path prefix (`/v0.1/checkouts`) or a pattern with `:param`/`*` segments. */
  path: string;
  kind: FaultKind;
  status: 500 | 502 | 503;
  delayMs: number;
  /** Requests still to affect. */
  remaining: number;
}

/**
 * The data file's first line (or, in files written before the journal, its whole text):
 * every record, one array per collection under the collection's name, and the counters that a
 * restart must not hand out again. A collection added after version 1 shipped is absent in
 * older data files; the first four are always there (`isSnapshot`).
 */
export type Snapshot = {
  version: 1;
  nextInternalId: number;
  nextEventId: number;
  /** How far the sandbox clock had been moved ahead (POST /sandbox/clock). */
  clockOffsetMs?: number;
} & { [K in Kind]?: Collections[K][] };

export function isSnapshot(value: unknown): value is Snapshot {
  if (!isRecord(value)) return false;
  const v = value;
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

/** Every collection of the store and its record type. */
export interface Collections {
  checkouts: CheckoutRecord;
  transactions: TransactionRecord;
  customers: CustomerRecord;
  instruments: InstrumentRecord;
  devices: DeviceRecord;
  readers: ReaderRecord;
  readerCheckouts: ReaderCheckoutRecord;
  operators: OperatorRecord;
  deliveries: DeliveryRecord;
  faults: FaultRecord;
  webhookFaults: WebhookFaultRecord;
  outcomes: OutcomeRecord;
}
export type Kind = keyof Collections;

/**
 * A record as the store hands it out: read-only all the way down, so that a change can only
 * go through the store's `update`, which tells every subscriber.
 */
export type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [P in keyof T]: Frozen<T[P]> }
    : T;
