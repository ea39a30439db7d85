// The store owns every record of the sandbox. Its collections are private: code reads records
// (read-only, `Frozen`) and changes them only through `insert`, `update` and `remove`, which
// allocate ids where the sandbox makes them up and emit one change event per change. The data
// file's journal (journal.ts) and the dashboard's live stream (control/live.ts) both subscribe
// to that one stream, so no route has to remember to say that something changed.
//
// Several writes that belong together (a payment: its transaction, the saved card, the
// checkout) go in one `transact`: they reach the subscribers as one event, so the journal
// writes them as one line and a crash keeps all of them or none.

import { allocateIds, countPast, freshCounters } from './ids.ts';
import type { CheckoutRecord, Collections, Frozen, Kind, Snapshot } from './records.ts';

export type { Collections, Kind };

/** The field that names each record: its key in the collection. */
const KEY: { readonly [K in Kind]: keyof Collections[K] & string } = {
  checkouts: 'id',
  transactions: 'id',
  customers: 'customer_id',
  instruments: 'token',
  devices: 'identifier',
  readers: 'id',
  readerCheckouts: 'id',
  operators: 'id',
  deliveries: 'id',
  faults: 'id',
  webhookFaults: 'id',
  outcomes: 'id',
};

export const KINDS = Object.keys(KEY) as Kind[];

/** The type of each collection's key: operators are numbered, everything else has a string id. */
type KeyOf<K extends Kind> = K extends 'operators' ? number : string;

function keyOf<K extends Kind>(kind: K, record: Collections[K]): KeyOf<K> {
  return (record as unknown as Record<string, KeyOf<K>>)[KEY[kind]] as KeyOf<K>;
}

/** The fields the store allocates on insert; the caller gives everything else. */
interface AllocatedFields {
  checkouts: 'id';
  transactions: 'id' | 'transaction_code' | 'internal_id';
  customers: never;
  instruments: 'token';
  devices: 'identifier';
  readers: 'id';
  readerCheckouts: 'id';
  operators: 'id';
  deliveries: 'id';
  faults: 'id';
  webhookFaults: 'id';
  outcomes: 'id';
}
export type Draft<K extends Kind> = Omit<Collections[K], AllocatedFields[K]>;

/**
 * Whether a batch already puts this very record object, with nothing after that could undo it
 * (a remove, a reset): the batch is told when it ends, so that put already carries the record
 * as it is then, and a second one would write it twice.
 */
function alreadyPut(batch: readonly Change[], record: object): boolean {
  for (let i = batch.length - 1; i >= 0; i -= 1) {
    const earlier = batch[i]!;
    if (earlier.op === 'put' && earlier.record === record) return true;
    if (earlier.op === 'remove' || earlier.op === 'reset') return false;
  }
  return false;
}

/** One write. `put` carries the whole record as it is after the write. */
export type Change =
  | { [K in Kind]: { op: 'put'; kind: K; record: Collections[K] } }[Kind]
  | { op: 'remove'; kind: Kind; key: string | number }
  | { op: 'clock'; offsetMs: number }
  | { op: 'reset' };

/** Called once per change (a single write, or the writes of one `transact`). */
export type ChangeListener = (changes: readonly Change[]) => void;

type Tables = { [K in Kind]: Map<KeyOf<K>, Collections[K]> };

function emptyTables(): Tables {
  const tables: Partial<Record<Kind, Map<unknown, unknown>>> = {};
  for (const kind of KINDS) tables[kind] = new Map();
  return tables as Tables;
}

export class Store {
  readonly #tables: Tables = emptyTables();
  /**
   * Checkouts by checkout_reference, oldest first: the duplicate rule and the list filter
   * look here, so creating a checkout does not get slower as the sandbox fills.
   */
  readonly #byReference = new Map<string, CheckoutRecord[]>();
  #counters = freshCounters();
  #clockOffsetMs = 0;
  readonly #listeners: ChangeListener[] = [];
  /** Writes of the `transact` under way, emitted together when it ends. */
  #batch: Change[] | undefined;

  // ---- reading ----

  get<K extends Kind>(kind: K, key: KeyOf<K>): Frozen<Collections[K]> | undefined {
    return this.#tables[kind].get(key) as Frozen<Collections[K]> | undefined;
  }

  has<K extends Kind>(kind: K, key: KeyOf<K>): boolean {
    return this.#tables[kind].has(key);
  }

  /** Oldest first (insertion order). */
  values<K extends Kind>(kind: K): IterableIterator<Frozen<Collections[K]>> {
    return this.#tables[kind].values() as IterableIterator<Frozen<Collections[K]>>;
  }

  /** Oldest first, as an array. */
  list<K extends Kind>(kind: K): Frozen<Collections[K]>[] {
    return [...this.values(kind)];
  }

  count(kind: Kind): number {
    return this.#tables[kind].size;
  }

  /** The checkouts with this checkout_reference, oldest first. */
  checkoutsWithReference(reference: string): Frozen<CheckoutRecord>[] {
    return [...(this.#byReference.get(reference) ?? [])];
  }

  /** How far the sandbox clock is ahead of real time (the clock reads it on every `now()`). */
  get clockOffsetMs(): number {
    return this.#clockOffsetMs;
  }

  // ---- writing ----

  /** Adds a record; the store fills in the ids it allocates. */
  insert<K extends Kind>(kind: K, draft: Draft<K>): Frozen<Collections[K]> {
    const record = { ...draft, ...allocateIds(kind, draft, this.#counters) } as Collections[K];
    const key = keyOf(kind, record);
    if (this.#tables[kind].has(key)) throw new Error(`${kind} ${String(key)} exists already`);
    this.#put(kind, record);
    this.#emit({ op: 'put', kind, record } as Change);
    return record as Frozen<Collections[K]>;
  }

  /** Changes a record in place; `change` may not touch its key. */
  update<K extends Kind>(
    kind: K,
    key: KeyOf<K>,
    change: (record: Collections[K]) => void,
  ): Frozen<Collections[K]> {
    const record = this.#tables[kind].get(key);
    if (record === undefined) throw new Error(`${kind} ${String(key)} does not exist`);
    try {
      change(record);
    } finally {
      // Even when `change` threw halfway: what it did is in memory, so it is told too.
      this.#emit({ op: 'put', kind, record } as Change);
    }
    return record as Frozen<Collections[K]>;
  }

  /** Forgets a record; false when there was none. */
  remove<K extends Kind>(kind: K, key: KeyOf<K>): boolean {
    const record = this.#tables[kind].get(key);
    if (record === undefined) return false;
    this.#delete(kind, key, record);
    this.#emit({ op: 'remove', kind, key: key as string | number });
    return true;
  }

  /** Forgets every record of one kind, as one change event. */
  removeAll<K extends Kind>(kind: K): void {
    const table: Map<KeyOf<K>, Collections[K]> = this.#tables[kind];
    this.transact(() => {
      for (const key of [...table.keys()]) this.remove(kind, key);
    });
  }

  setClockOffset(offsetMs: number): void {
    this.#clockOffsetMs = offsetMs;
    this.#emit({ op: 'clock', offsetMs });
  }

  /** An id for a transaction event (a refund, a chargeback), never handed out twice. */
  allocateEventId(): number {
    return this.#counters.eventId++;
  }

  /** Forgets every record, puts the counters and the clock back. */
  reset(): void {
    this.#clear();
    this.#emit({ op: 'reset' });
  }

  /**
   * Runs `writes` (synchronous: nothing may wait in between) and emits everything it wrote as
   * one event. Nested calls join the outer one.
   */
  transact<T>(writes: () => T): T {
    if (this.#batch !== undefined) return writes();
    const batch: Change[] = [];
    this.#batch = batch;
    try {
      return writes();
    } finally {
      this.#batch = undefined;
      // Emitted even when `writes` threw: what it wrote is in memory, so it goes to disk too.
      if (batch.length > 0) this.#tell(batch);
    }
  }

  /** Listeners run in the order they subscribed, synchronously, before the write returns. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    };
  }

  // ---- snapshot and replay (the journal's side; nothing is emitted) ----

  snapshot(): Snapshot {
    const snapshot: Snapshot = {
      version: 1,
      nextInternalId: this.#counters.internalId,
      nextEventId: this.#counters.eventId,
      clockOffsetMs: this.#clockOffsetMs,
    };
    // Every collection, by its name: a kind added to the store is in the file without more.
    const tables = snapshot as Record<Kind, unknown[]>;
    for (const kind of KINDS) tables[kind] = [...this.#tables[kind].values()];
    return snapshot;
  }

  /** Replaces everything with a snapshot's records. */
  restore(snapshot: Snapshot): void {
    this.#clear();
    for (const kind of KINDS) {
      const records = (snapshot[kind] ?? []) as Collections[typeof kind][];
      for (const record of records) this.#put(kind, record);
    }
    this.#counters.internalId = Math.max(this.#counters.internalId, snapshot.nextInternalId);
    this.#counters.eventId = Math.max(this.#counters.eventId, snapshot.nextEventId);
    const offset = snapshot.clockOffsetMs ?? 0;
    this.#clockOffsetMs = Number.isFinite(offset) && offset > 0 ? offset : 0;
  }

  /** Applies changes read back from the journal, as they were applied when first made. */
  replay(changes: readonly Change[]): void {
    for (const change of changes) {
      switch (change.op) {
        case 'put':
          this.#put(change.kind, change.record);
          break;
        case 'remove': {
          const table = this.#tables[change.kind] as Map<unknown, Collections[Kind]>;
          const record = table.get(change.key);
          if (record !== undefined) this.#delete(change.kind, change.key as never, record);
          break;
        }
        case 'clock':
          this.#clockOffsetMs = change.offsetMs;
          break;
        case 'reset':
          this.#clear();
          break;
      }
    }
  }

  // ---- inside ----

  #emit(change: Change): void {
    const batch = this.#batch;
    if (batch === undefined) this.#tell([change]);
    else if (!(change.op === 'put' && alreadyPut(batch, change.record))) batch.push(change);
  }

  #tell(changes: readonly Change[]): void {
    for (const listener of this.#listeners) listener(changes);
  }

  /** Stores (or replaces) a record and moves the counters past the ids it holds. */
  #put<K extends Kind>(kind: K, record: Collections[K]): void {
    const table = this.#tables[kind] as Map<unknown, Collections[K]>;
    const key = keyOf(kind, record);
    const previous = table.get(key);
    table.set(key, record);
    if (kind === 'checkouts') {
      this.#index(record as CheckoutRecord, previous as CheckoutRecord | undefined);
    }
    countPast(kind, record, this.#counters);
  }

  #delete<K extends Kind>(kind: K, key: KeyOf<K>, record: Collections[K]): void {
    this.#tables[kind].delete(key);
    if (kind !== 'checkouts') return;
    const checkout = record as CheckoutRecord;
    const same = this.#byReference.get(checkout.checkout_reference)?.filter((c) => c !== checkout);
    if (same === undefined || same.length === 0)
      this.#byReference.delete(checkout.checkout_reference);
    else this.#byReference.set(checkout.checkout_reference, same);
  }

  #index(checkout: CheckoutRecord, previous: CheckoutRecord | undefined): void {
    const same = this.#byReference.get(checkout.checkout_reference);
    if (same === undefined) {
      this.#byReference.set(checkout.checkout_reference, [checkout]);
      return;
    }
    // A replayed `put` replaces the record object: the index must hold the new one.
    const at = previous === undefined ? -1 : same.indexOf(previous);
    if (at >= 0) same[at] = checkout;
    else same.push(checkout);
  }

  #clear(): void {
    for (const kind of KINDS) this.#tables[kind].clear();
    this.#byReference.clear();
    this.#counters = freshCounters();
    this.#clockOffsetMs = 0;
  }
}
