// The sandbox's state kept in the browser, as the CLI's `--data FILE` keeps it in a file: the
// store's change stream appended to IndexedDB, read back into the store when the worker starts
// again (a browser stops an idle Service Worker after about half a minute, and with it
// everything in its memory). The first record is a snapshot, then one line per change; now and
// then the lines are folded into a new snapshot.
import type { Snapshot } from '../../src/sandbox/state/records.ts';
import type { Change, Store } from '../../src/sandbox/state/store.ts';
import type { Database } from './idb.ts';
import { savedRequests } from './request-journal.ts';

const SNAPSHOT = 'sandbox:snapshot';
/** Lines after which the journal is folded into a snapshot: replaying them stays quick. */
const COMPACT_AFTER = 200;

/**
 * What the database held: the snapshot and the changes after it, as JSON text, and the request
 * log (request-journal.ts).
 */
export interface Saved {
  snapshot: string | undefined;
  lines: string[];
  requests: ReturnType<typeof savedRequests>;
}

export async function readSaved(db: Database): Promise<Saved> {
  const [records, lines] = await Promise.all([db.entries('records'), db.entries('journal')]);
  const snapshot = records.find(([key]) => key === SNAPSHOT)?.[1];
  return {
    snapshot: typeof snapshot === 'string' ? snapshot : undefined,
    lines: lines.map(([, line]) => String(line)),
    requests: savedRequests(records),
  };
}

export class BrowserJournal {
  #pending: Promise<void> = Promise.resolve();
  #lines = 0;
  #unsubscribe: (() => void) | undefined;

  private readonly db: Database;
  private readonly store: Store;

  constructor(db: Database, store: Store) {
    this.db = db;
    this.store = store;
  }

  /** Fills the store with what was saved, then appends every change it makes from now on. */
  open(saved: Saved): void {
    if (saved.snapshot !== undefined) this.store.restore(JSON.parse(saved.snapshot) as Snapshot);
    for (const line of saved.lines) this.store.replay(JSON.parse(line) as Change[]);
    this.#lines = saved.lines.length;
    this.#unsubscribe = this.store.subscribe((changes) => this.#append(changes));
  }

  /** Resolves once every change made so far is stored. */
  flush(): Promise<void> {
    return this.#pending;
  }

  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #append(changes: readonly Change[]): void {
    const line = JSON.stringify(changes);
    this.#lines += 1;
    const compact = this.#lines >= COMPACT_AFTER;
    // Taken now, in the order of the changes: a later snapshot would hold changes not yet due.
    const snapshot = compact ? JSON.stringify(this.store.snapshot()) : undefined;
    if (compact) this.#lines = 0;
    this.#queue(() =>
      this.db.write(['journal', 'records'], (t) => {
        if (snapshot === undefined) {
          t.journal.add(line);
          return;
        }
        t.journal.clear();
        t.records.put(snapshot, SNAPSHOT);
      }),
    );
  }

  #queue(write: () => Promise<void>): void {
    this.#pending = this.#pending.then(write).catch((error: unknown) => {
      // A full or refused storage: the simulation goes on in memory.
      console.warn('payment-widget site: the sandbox state could not be stored', error);
    });
  }
}
