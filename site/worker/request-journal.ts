// The sandbox's request log kept in the browser beside its state (journal.ts): a restarted
// worker (the browser closed, or an idle worker stopped) shows the same requests, their
// bodies included, where the log in memory alone started empty. One record per request, in
// the site's records under an array key (`['request', n]`, counting up: IndexedDB orders them
// as they came, and past the site's own string keys, which Records loads); the bodies already
// masked by the log. The records follow the log's rules: the newest REQUEST_LOG_SIZE kept,
// the newest BODIES_KEPT with their bodies, none after a reset.
import {
  BODIES_KEPT,
  type LoggedRequest,
  REQUEST_LOG_SIZE,
  type RequestLog,
  type RequestLogChange,
} from '../../src/sandbox/state/request-log.ts';
import type { Database } from './idb.ts';

const KIND = 'request';
/** Every record of the log, whatever its number. */
const ALL = IDBKeyRange.bound([KIND, -Infinity], [KIND, Infinity]);

/** The request log's records among the site's saved records, oldest first, with their numbers. */
export function savedRequests(records: [IDBValidKey, unknown][]): [number, LoggedRequest][] {
  const out: [number, LoggedRequest][] = [];
  for (const [key, value] of records) {
    if (Array.isArray(key) && key[0] === KIND && typeof key[1] === 'number') {
      out.push([key[1], value as LoggedRequest]);
    }
  }
  return out;
}

export class RequestJournal {
  #pending: Promise<void> = Promise.resolve();
  /** The next record's number. */
  #next = 0;

  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Fills `log` with what was saved, then stores every request it records from now on. */
  open(log: RequestLog, saved: [number, LoggedRequest][]): void {
    log.restore(saved.map(([, request]) => request));
    this.#next = (saved.at(-1)?.[0] ?? -1) + 1;
    log.keep((change) => this.#store(change));
  }

  /** Resolves once every request recorded so far is stored. */
  flush(): Promise<void> {
    return this.#pending;
  }

  #store(change: RequestLogChange): void {
    if (change.op === 'clear') {
      this.#queue((records) => records.delete(ALL));
      return;
    }
    const n = this.#next;
    this.#next += 1;
    const { request } = change;
    this.#queue((records) => {
      records.put(request, [KIND, n]);
      // Out of the ring: gone; out of the newest BODIES_KEPT: its bodies gone.
      records.delete(IDBKeyRange.bound([KIND, -Infinity], [KIND, n - REQUEST_LOG_SIZE]));
      const lapsed = records.get([KIND, n - BODIES_KEPT]);
      lapsed.onsuccess = () => {
        const old = lapsed.result as LoggedRequest | undefined;
        if (old && (old.requestBody !== '' || old.responseBody !== '')) {
          records.put({ ...old, requestBody: '', responseBody: '' }, [KIND, n - BODIES_KEPT]);
        }
      };
    });
  }

  #queue(write: (records: IDBObjectStore) => void): void {
    this.#pending = this.#pending
      .then(() => this.db.write(['records'], (t) => write(t.records)))
      .catch((error: unknown) => {
        // A full or refused storage: the log goes on in memory.
        console.warn('payment-widget site: the request log could not be stored', error);
      });
  }
}
