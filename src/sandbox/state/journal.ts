// `--data FILE`: the state as one JSON snapshot, written atomically (temp file + rename)
// shortly after each change and loaded at start.
//
// Why JSON: the state is small (a sandbox holds hundreds of records, not millions), JSON
// needs no dependency, a developer can read, diff and hand-edit it to seed a scenario, and a
// whole-file rewrite behind rename can never leave a half-written file.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSnapshot, type Snapshot } from './records.ts';

/** Coalesces bursts of changes (a checkout settles in several steps) into one write. */
const DEBOUNCE_MS = 50;

export class Persistence {
  readonly #file: string;
  readonly #snapshot: () => Snapshot;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(file: string, snapshot: () => Snapshot) {
    this.#file = file;
    this.#snapshot = snapshot;
  }

  /** The stored snapshot, or undefined when the file does not exist yet. */
  load(): Snapshot | undefined {
    if (!existsSync(this.#file)) return undefined;
    const text = readFileSync(this.#file, 'utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error(`payment-sandbox: ${this.#file} is not valid JSON; fix or remove it`);
    }
    if (!isSnapshot(data)) {
      throw new Error(`payment-sandbox: ${this.#file} is not a sandbox data file (version 1)`);
    }
    return data;
  }

  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
    this.#timer.unref();
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    mkdirSync(dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.#snapshot(), null, 2)}\n`);
    renameSync(tmp, this.#file);
  }

  /** Writes now if a write is pending (shutdown). */
  flushPending(): void {
    if (this.#timer) this.flush();
  }
}
