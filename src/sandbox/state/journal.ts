// `--data FILE`: the store's change stream appended to a file, as Redis's append-only file
// keeps its commands. Every change is written to the operating system (`writeSync`, nothing
// buffered in JavaScript) when the store emits it, which is before the route that made it
// returns its answer: a crash, even `kill -9`, loses nothing a client saw succeed. When the
// bytes reach the disk itself is `--fsync`'s choice, as Redis's `appendfsync`:
//   always    fdatasync after every change, before the answer (survives power loss, slowest)
//   everysec  fdatasync once a second in the background (a power loss costs at most a second)
//   no        the operating system flushes when it likes
//
// The file is the journal itself. Its first line is a snapshot (every record, as
// `Store.snapshot()`); each further line is one change event, a JSON array of writes. Now and
// then (when the changes outweigh the snapshot, and on close) the journal is compacted: the
// whole state is written as a new first line to a temporary file, synced, and renamed over the
// old one, so the file is always either the old journal or the new one, never half of each.
//
// Reading it back: the snapshot, then each change in order. A last line cut short (the process
// died in the middle of writing it, so its answer never left) is skipped with a warning and cut
// off; any other line that does not read is a corrupt file, which stops the start instead of
// being overwritten. A file written before the journal (one pretty-printed snapshot) reads too.

import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { isRecord } from '../../shared/record.ts';
import { isSnapshot, type Snapshot } from './records.ts';
import { type Change, KINDS, type Store } from './store.ts';

export const FSYNC_POLICIES = ['always', 'everysec', 'no'] as const;
export type FsyncPolicy = (typeof FSYNC_POLICIES)[number];

export function isFsyncPolicy(value: unknown): value is FsyncPolicy {
  return (FSYNC_POLICIES as readonly unknown[]).includes(value);
}

/**
 * Compaction waits until the changes since the last snapshot are at least this large and at
 * least as large as the snapshot itself (Redis's auto-aof-rewrite-min-size and -percentage
 * 100): rewriting costs the whole state, so it happens once per doubling, a constant share
 * of each change.
 */
const COMPACT_MIN_BYTES = 1024 * 1024;
const EVERYSEC_MS = 1_000;

export interface JournalOptions {
  fsync: FsyncPolicy;
  /** Where a skipped torn line is reported. */
  warn: (line: string) => void;
}

const KNOWN_KINDS: ReadonlySet<unknown> = new Set(KINDS);

function isChange(value: unknown): value is Change {
  if (!isRecord(value)) return false;
  switch (value.op) {
    case 'put':
      return KNOWN_KINDS.has(value.kind) && isRecord(value.record);
    case 'remove':
      return (
        KNOWN_KINDS.has(value.kind) &&
        (typeof value.key === 'string' || typeof value.key === 'number')
      );
    case 'clock':
      return typeof value.offsetMs === 'number';
    case 'reset':
      return true;
    default:
      return false;
  }
}

const isChangeLine = (value: unknown): value is Change[] =>
  Array.isArray(value) && value.every(isChange);

/** Writes all of `text` (a write may take less than it was given). */
function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
  return bytes.length;
}

/** Makes a rename durable: the directory entry is data of the directory. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot open or sync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export class Journal {
  readonly #file: string;
  readonly #store: Store;
  readonly #options: JournalOptions;
  #fd: number | undefined;
  #unsubscribe: (() => void) | undefined;
  #snapshotBytes = 0;
  #journalBytes = 0;
  #compactionDue = false;
  /** Changes written since the last fdatasync (everysec). */
  #dirty = false;
  #syncing = false;
  /** Descriptors replaced by a compaction while a background sync still used them. */
  #retired: number[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(file: string, store: Store, options: JournalOptions) {
    this.#file = file;
    this.#store = store;
    this.#options = options;
  }

  /**
   * Loads the file into the store (creating it when there is none), then appends every change
   * the store emits from now on.
   */
  open(): void {
    mkdirSync(dirname(this.#file), { recursive: true });
    let rewrite = true;
    if (existsSync(this.#file)) {
      const loaded = this.#load();
      rewrite = loaded.rewrite;
      if (loaded.goodLength !== undefined) {
        // Cut the torn tail off, or the next change would be glued to it.
        const fd = openSync(this.#file, 'r+');
        try {
          ftruncateSync(fd, loaded.goodLength);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
    }
    if (rewrite) this.#compact();
    else this.#fd = openSync(this.#file, 'a');
    this.#unsubscribe = this.#store.subscribe((changes) => this.#append(changes));
    if (this.#options.fsync === 'everysec') {
      this.#timer = setInterval(() => this.#syncInBackground(), EVERYSEC_MS);
      this.#timer.unref();
    }
    if (this.#journalBytes >= Math.max(COMPACT_MIN_BYTES, this.#snapshotBytes)) this.#compact();
  }

  /** Compacts (the file is then one snapshot line) and stops appending. */
  close(): void {
    if (this.#unsubscribe === undefined) return;
    this.#unsubscribe();
    this.#unsubscribe = undefined;
    clearInterval(this.#timer);
    // Already one snapshot line when nothing was appended since the last compaction.
    if (this.#journalBytes > 0) this.#compact();
    if (this.#fd !== undefined) this.#retire(this.#fd);
    this.#fd = undefined;
  }

  /** Reads the file into the store: whether it must be rewritten, and where a torn tail starts. */
  #load(): { rewrite: boolean; goodLength: number | undefined } {
    const text = readFileSync(this.#file, 'utf8');
    const firstEnd = text.indexOf('\n');
    let snapshot: unknown;
    let legacy = false;
    try {
      snapshot = JSON.parse(firstEnd < 0 ? text : text.slice(0, firstEnd));
    } catch {
      // Not one line: a pretty-printed snapshot, written before the journal or by hand.
      try {
        snapshot = JSON.parse(text);
        legacy = true;
      } catch {
        throw new Error(`payment-sandbox: ${this.#file} is not valid JSON; fix or remove it`);
      }
    }
    if (!isSnapshot(snapshot)) {
      throw new Error(`payment-sandbox: ${this.#file} is not a sandbox data file (version 1)`);
    }
    this.#store.restore(snapshot as Snapshot);
    // One snapshot without a line end yet (written by hand): rewritten before anything is added.
    if (legacy || firstEnd < 0) return { rewrite: true, goodLength: undefined };

    this.#snapshotBytes = Buffer.byteLength(text.slice(0, firstEnd + 1));
    let start = firstEnd + 1;
    let line = 2;
    const contentEnd = text.trimEnd().length;
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      const last = end < 0 || end >= contentEnd;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text.slice(start, end < 0 ? undefined : end));
      } catch {
        parsed = undefined;
      }
      if (!isChangeLine(parsed)) {
        if (!last) {
          throw new Error(
            `payment-sandbox: ${this.#file} line ${line} is corrupt; fix or remove the file`,
          );
        }
        this.#options.warn(
          `payment-sandbox: ${this.#file} line ${line} was cut short (the process stopped while writing it, before its answer left); skipped`,
        );
        const goodLength = Buffer.byteLength(text.slice(0, start));
        this.#journalBytes = goodLength - this.#snapshotBytes;
        return { rewrite: false, goodLength };
      }
      this.#store.replay(parsed);
      line += 1;
      start = end < 0 ? text.length : end + 1;
    }
    this.#journalBytes = Buffer.byteLength(text) - this.#snapshotBytes;
    // A whole last line without its line end (a power loss under `no` or `everysec`, a hand
    // edit): appending would glue the next change onto it. Rewritten first, as a snapshot is.
    if (!text.endsWith('\n')) return { rewrite: true, goodLength: undefined };
    return { rewrite: false, goodLength: undefined };
  }

  #append(changes: readonly Change[]): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#journalBytes += writeAll(fd, `${JSON.stringify(changes)}\n`);
    if (this.#options.fsync === 'always') fdatasyncSync(fd);
    else this.#dirty = true;
    if (
      !this.#compactionDue &&
      this.#journalBytes >= Math.max(COMPACT_MIN_BYTES, this.#snapshotBytes)
    ) {
      // Off this answer's path: the change is in the file already, the rewrite can wait a tick.
      this.#compactionDue = true;
      setImmediate(() => {
        this.#compactionDue = false;
        if (this.#unsubscribe !== undefined) this.#compact();
      });
    }
  }

  /** The whole state as one snapshot line, replacing the file atomically. */
  #compact(): void {
    const text = `${JSON.stringify(this.#store.snapshot())}\n`;
    const tmp = `${this.#file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeAll(fd, text);
      // Whatever the policy: a rename of a file whose bytes are not on disk yet can leave an
      // empty file after a power loss, and this happens only now and then.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.#file);
    syncDirectory(dirname(this.#file));
    const old = this.#fd;
    this.#fd = openSync(this.#file, 'a');
    if (old !== undefined) this.#retire(old);
    this.#snapshotBytes = Buffer.byteLength(text);
    this.#journalBytes = 0;
    this.#dirty = false;
  }

  #syncInBackground(): void {
    const fd = this.#fd;
    if (!this.#dirty || this.#syncing || fd === undefined) return;
    this.#dirty = false;
    this.#syncing = true;
    fdatasync(fd, () => {
      // An error here (the disk is gone) has nobody to tell but the next compaction.
      this.#syncing = false;
      for (const retired of this.#retired.splice(0)) closeSync(retired);
    });
  }

  /** Closes a descriptor, after the background sync that may still use it. */
  #retire(fd: number): void {
    if (this.#syncing) this.#retired.push(fd);
    else closeSync(fd);
  }
}
