// The site's own small records (the handler's store, the shopper's basket), held in memory and
// written through to IndexedDB, so that a worker the browser stopped and started again finds
// them as they were.
import type { Database } from './idb.ts';

/** Keys the site keeps besides these records (the sandbox's snapshot) start with this. */
const SANDBOX = 'sandbox:';

export class Records {
  #pending: Promise<void> = Promise.resolve();

  private readonly db: Database;
  private readonly values: Map<string, unknown>;

  private constructor(db: Database, values: Map<string, unknown>) {
    this.db = db;
    this.values = values;
  }

  static async load(db: Database): Promise<Records> {
    const entries = await db.entries('records');
    const values = new Map<string, unknown>();
    for (const [key, value] of entries) {
      if (typeof key === 'string' && !key.startsWith(SANDBOX)) values.set(key, value);
    }
    return new Records(db, values);
  }

  get(key: string): unknown {
    return this.values.get(key);
  }

  /** Every key that starts with `prefix`, with its value. */
  *withPrefix(prefix: string): IterableIterator<[string, unknown]> {
    for (const entry of this.values) if (entry[0].startsWith(prefix)) yield entry;
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value);
    this.#queue((t) => t.put(value, key));
  }

  delete(key: string): void {
    if (!this.values.delete(key)) return;
    this.#queue((t) => t.delete(key));
  }

  /** Forgets every record (the sandbox's snapshot is the journal's to clear). */
  clear(): void {
    const keys = [...this.values.keys()];
    this.values.clear();
    this.#queue((t) => {
      for (const key of keys) t.delete(key);
    });
  }

  /** Resolves once every write so far is stored. */
  flush(): Promise<void> {
    return this.#pending;
  }

  #queue(write: (records: IDBObjectStore) => void): void {
    this.#pending = this.#pending
      .then(() => this.db.write(['records'], (t) => write(t.records)))
      .catch((error: unknown) => {
        console.warn('payment-widget site: a record could not be stored', error);
      });
  }
}
