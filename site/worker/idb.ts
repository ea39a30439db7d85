// The few IndexedDB calls the worker needs, as promises: one database per site (its scope),
// one object store per kind of state. Each write is its own transaction; the worker awaits
// it before it answers, so what a page saw succeed is stored when it sees it.

/** The object stores: the sandbox's journal, and the site's own records (handler, basket). */
export type Table = 'journal' | 'records';

function done(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export class Database {
  private readonly db: IDBDatabase;

  private constructor(db: IDBDatabase) {
    this.db = db;
  }

  static async open(name: string): Promise<Database> {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      // The journal's keys count up (its order is the order of the changes); records are keyed by name.
      request.result.createObjectStore('journal', { autoIncrement: true });
      request.result.createObjectStore('records');
    };
    return new Database((await done(request)) as IDBDatabase);
  }

  /** Every value of `table`, in key order, with its key. */
  async entries(table: Table): Promise<[IDBValidKey, unknown][]> {
    const store = this.db.transaction(table).objectStore(table);
    const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
    return (keys as IDBValidKey[]).map((key, i) => [key, (values as unknown[])[i]]);
  }

  /** Runs `writes` in one read-write transaction over `tables`; resolves once it is committed. */
  write(tables: Table[], writes: (stores: Record<Table, IDBObjectStore>) => void): Promise<void> {
    const tx = this.db.transaction(tables, 'readwrite');
    const stores = Object.fromEntries(tables.map((t) => [t, tx.objectStore(t)])) as Record<
      Table,
      IDBObjectStore
    >;
    writes(stores);
    return committed(tx);
  }
}
