// The ids the sandbox makes up, allocated only by the store on insert: uuids where the
// provider uses them, its own forms elsewhere (transaction codes, reader ids, device serials),
// and counters for the numbered ones. Counters are not written down on their own: reading the
// records back (a snapshot, the journal) moves each counter past every id it finds, so a
// restart never hands out an id twice.

import type {
  DeliveryRecord,
  DeviceRecord,
  FaultRecord,
  Kind,
  OperatorRecord,
  OutcomeRecord,
  TransactionRecord,
  WebhookFaultRecord,
} from './records.ts';

/** First internal id: large like the provider's, so nobody mistakes it for an index. */
const FIRST_INTERNAL_ID = 1_700_000_001;
/** Operator ids start above the primary account's (1). */
const FIRST_OPERATOR_ID = 100_001;

/** Letters and digits without the look-alikes (0/O, 1/I): for codes a person types. */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `length` random bytes from Web Crypto: the same in Node, a browser or a worker. */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Base64, or with `url` base64url without padding (as Node's Buffer writes them). */
export function toBase64(bytes: Uint8Array, url = false): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64 = btoa(binary);
  return url ? base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : base64;
}

export function randomString(alphabet: string, length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += alphabet[b % alphabet.length];
  return out;
}

export interface Counters {
  internalId: number;
  eventId: number;
  operatorId: number;
  delivery: number;
  fault: number;
  webhookFault: number;
  outcome: number;
}

export const freshCounters = (): Counters => ({
  internalId: FIRST_INTERNAL_ID,
  eventId: 1,
  operatorId: FIRST_OPERATOR_ID,
  delivery: 1,
  fault: 1,
  webhookFault: 1,
  outcome: 1,
});

/** The number after a prefix (`whd_12` -> 12), 0 when the id has another form. */
function serial(id: string, prefix: string): number {
  return id.startsWith(prefix) ? Number(id.slice(prefix.length)) || 0 : 0;
}

/** The id fields of a new record of `kind`; `draft` is the rest (a device's model). */
export function allocateIds(kind: Kind, draft: object, c: Counters): object {
  switch (kind) {
    case 'transactions':
      // Transaction codes look like the provider's: `T` + 9 characters.
      return {
        id: crypto.randomUUID(),
        transaction_code: `T${randomString(CODE_ALPHABET, 9)}`,
        internal_id: c.internalId++,
      };
    case 'instruments':
      return { token: crypto.randomUUID() };
    case 'devices': {
      // Serial-number-like, e.g. U1SB7K2Q9-SB (solo) or VS4M8X2NA-SB (virtual).
      const model = (draft as Pick<DeviceRecord, 'model'>).model;
      return {
        identifier: `${model === 'solo' ? 'U1' : 'VS'}${randomString(CODE_ALPHABET, 7)}-SB`,
      };
    }
    case 'readers':
      // `rdr_` + 26 characters: the provider's 30-character reader id form.
      return { id: `rdr_${randomString(CROCKFORD, 26)}` };
    case 'operators':
      return { id: c.operatorId++ };
    case 'deliveries':
      return { id: `whd_${c.delivery++}` };
    case 'faults':
      return { id: `fault_${c.fault++}` };
    case 'webhookFaults':
      return { id: `whf_${c.webhookFault++}` };
    case 'outcomes':
      return { id: `out_${c.outcome++}` };
    case 'customers':
      // The merchant names its customers.
      return {};
    case 'checkouts':
    case 'readerCheckouts':
      return { id: crypto.randomUUID() };
  }
}

/** Moves the counters past the ids a stored record holds. */
export function countPast(kind: Kind, record: object, c: Counters): void {
  switch (kind) {
    case 'transactions': {
      const t = record as TransactionRecord;
      c.internalId = Math.max(c.internalId, t.internal_id + 1);
      for (const e of t.events) c.eventId = Math.max(c.eventId, e.id + 1);
      break;
    }
    case 'operators':
      c.operatorId = Math.max(c.operatorId, (record as OperatorRecord).id + 1);
      break;
    case 'deliveries':
      c.delivery = Math.max(c.delivery, serial((record as DeliveryRecord).id, 'whd_') + 1);
      break;
    case 'faults':
      c.fault = Math.max(c.fault, serial((record as FaultRecord).id, 'fault_') + 1);
      break;
    case 'webhookFaults':
      c.webhookFault = Math.max(
        c.webhookFault,
        serial((record as WebhookFaultRecord).id, 'whf_') + 1,
      );
      break;
    case 'outcomes':
      c.outcome = Math.max(c.outcome, serial((record as OutcomeRecord).id, 'out_') + 1);
      break;
  }
}
