// Request ids and the request log behind `GET /sandbox/requests`.
//
// Every answer carries `X-Request-Id`: the caller's own when it is a short token (so a
// merchant's server can pass its id through and find the call here), else a new one. The log
// keeps the last 1,000 requests in a ring: one small record per request and no other work on
// the request path, so the provider routes stay as fast as before. Paths only: never a query
// string, a body, card data or a key.

import { randomUUID } from 'node:crypto';

/** What a caller may choose as its request id: short, and safe in a log line and a header. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/** The caller's id when it fits the pattern, else a new one. */
export function requestIdFor(incoming: string | null): string {
  return incoming !== null && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

export interface RequestRecord {
  /** Sandbox clock time (ms) when the request arrived. */
  readonly at: number;
  readonly method: string;
  /** As the client sent it, without the query string. */
  readonly path: string;
  /** 0 when the connection was dropped by a fault. */
  readonly status: number;
  readonly durationMs: number;
  readonly request_id: string;
}

export interface RequestJson {
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  request_id: string;
}

export const REQUEST_LOG_SIZE = 1_000;

export class RequestLog {
  readonly #ring: (RequestRecord | undefined)[] = new Array(REQUEST_LOG_SIZE);
  /** Where the next record goes. */
  #next = 0;

  record(entry: RequestRecord): void {
    this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % REQUEST_LOG_SIZE;
  }

  /** Newest first; only those with this request id when one is given. */
  list(requestId?: string): RequestJson[] {
    const out: RequestJson[] = [];
    for (let i = 1; i <= REQUEST_LOG_SIZE; i++) {
      const r = this.#ring[(this.#next - i + REQUEST_LOG_SIZE) % REQUEST_LOG_SIZE];
      if (r === undefined) break;
      if (requestId !== undefined && r.request_id !== requestId) continue;
      out.push({
        at: new Date(r.at).toISOString(),
        method: r.method,
        path: r.path,
        status: r.status,
        // Microseconds are noise at this scale; a tenth of a millisecond reads well.
        durationMs: Math.round(r.durationMs * 10) / 10,
        request_id: r.request_id,
      });
    }
    return out;
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
  }
}
