// Fault injection for the provider routes: add latency, answer an error, or drop the
// connection for the next `times` matching requests. Merchants use it to test retries and
// timeouts; it never applies to the `/sandbox/` control surface itself.

import { matchPattern } from './path-pattern.ts';

export type FaultKind = 'latency' | 'error' | 'drop';

export interface Fault {
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

export class FaultStore {
  #faults: Fault[] = [];
  #nextId = 1;

  add(fault: Omit<Fault, 'id'>): Fault {
    const f = { ...fault, id: `fault_${this.#nextId++}` };
    this.#faults.push(f);
    return f;
  }

  list(): readonly Fault[] {
    return this.#faults;
  }

  clear(): void {
    this.#faults = [];
  }

  /** The first fault matching this request, consumed by one use. */
  take(method: string, path: string): Fault | undefined {
    const index = this.#faults.findIndex(
      (f) =>
        (f.method === undefined || f.method === method) &&
        (f.path.includes(':') || f.path.includes('*')
          ? matchPattern(f.path, path) !== null
          : path === f.path || path.startsWith(f.path.endsWith('/') ? f.path : `${f.path}/`)),
    );
    if (index < 0) return undefined;
    const fault = this.#faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }
}
