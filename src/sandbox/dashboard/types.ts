// What the dashboard reads from the cockpit routes. Deliveries, faults and request records
// are the server's own types; the overview's parts are spelled out here (overview.ts builds
// them from the provider's shapes).

export type { RequestJson as RequestEntry } from '../http/request-log.ts';
export type { WebhookFault } from '../simulation/webhook-faults.ts';
export type { Delivery, DeliveryAttempt } from '../simulation/webhooks.ts';

export interface CardSummary {
  last_4_digits: string;
  type: string;
}

export interface TransactionView {
  id: string;
  transaction_code: string;
  type: 'PAYMENT' | 'REFUND';
  status: string;
  payment_type: string;
  amount: number;
  currency: string;
  timestamp: string;
  card?: CardSummary;
  refunded_amount: number;
  refundable: number;
}

export interface CheckoutView {
  id: string;
  checkout_reference: string;
  amount: number;
  currency: string;
  status: string;
  date: string;
  description?: string;
  return_url?: string;
  redirect_url?: string;
  customer_id?: string;
  valid_until?: string;
  boleto?: { barcode: string; url: string };
  transactions: TransactionView[];
  status_history: { status: string; at: string }[];
  next_step?: { kind: string; url: string };
  actions: { expire: boolean; settle: boolean };
}

export interface CustomerView {
  customer_id: string;
  personal_details?: { first_name?: string; last_name?: string; email?: string };
  instruments: {
    token: string;
    active: boolean;
    card: CardSummary;
    mandate: { status: string };
    created_at: string;
  }[];
}

export interface ReaderView {
  id: string;
  name: string;
  status: string;
  device_identifier: string;
  created_at: string;
}

export interface DeviceView {
  identifier: string;
  model: string;
  software_version: string;
  online: boolean;
  screen: string;
  pairing_code?: string;
  pairing_code_expires_at?: string;
  reader_id?: string;
}

export interface ReaderCheckoutView {
  client_transaction_id: string;
  reader_id: string;
  status: string;
  failure?: string;
  total_amount: { value: number; currency: string; minor_unit: number };
  created_at: string;
}

export interface Overview {
  now: string;
  clock_offset_ms: number;
  merchant_code: string;
  checkouts_total: number;
  checkouts: CheckoutView[];
  customers: CustomerView[];
  readers: ReaderView[];
  devices: DeviceView[];
  reader_checkouts: ReaderCheckoutView[];
}
