// Request ids and the request log behind `GET /sandbox/requests`.
//
// Every answer carries `X-Request-Id`: the caller's own when it is a short token (so a
// merchant's server can pass its id through and find the call here), else a new one. The log
// keeps the last 1,000 requests in a ring: one small record per request and no other work on
// the request path, so the provider routes stay as fast as before. Never a query string or a
// key; the JSON bodies of the newest BODIES_KEPT requests and their answers, with every card
// number and security code masked before they are stored (body-mask.ts).
//
// `record-requests.ts` is the middleware that fills it and sets the ids. A host that keeps the
// log past a restart (the static site's worker, in IndexedDB) follows it with `keep` and fills
// it again with `restore`.

/** One slot of the ring, written over in place: a request allocates no record of its own. */
interface Slot {
  /** Sandbox clock time (ms) when the request arrived; 0 while the slot is unused. */
  at: number;
  method: string;
  /** As the client sent it, without the query string. */
  path: string;
  /** 0 when the connection was dropped by a fault. */
  status: number;
  durationMs: number;
  request_id: string;
  /** The W3C trace context the caller sent, as it sent it; '' when none. */
  traceparent: string;
  /** The request's JSON body, masked; '' when none (or the slot is past BODIES_KEPT). */
  requestBody: string;
  /** The answer's JSON body, masked; '' when none. */
  responseBody: string;
}

const emptySlot = (): Slot => ({
  at: 0,
  method: '',
  path: '',
  status: 0,
  durationMs: 0,
  request_id: '',
  traceparent: '',
  requestBody: '',
  responseBody: '',
});

export interface RequestJson {
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  request_id: string;
  /** The caller's `traceparent`, when it sent one: its trace, found in the caller's tracing. */
  traceparent?: string;
  /** The request's JSON body, masked (card numbers to their last four, no CVV). */
  request_body?: string;
  /** The answer's JSON body, masked alike. */
  response_body?: string;
}

/** The bodies the log has already masked, for `record`. */
export interface RecordedBodies {
  request: string;
  response: string;
}

/** One request as the log holds it (bodies already masked): what a keeper stores. */
export type LoggedRequest = Readonly<Slot>;

/** What a keeper hears: the request just recorded (the newest), or the log cleared. */
export type RequestLogChange = { op: 'record'; request: LoggedRequest } | { op: 'clear' };

export const REQUEST_LOG_SIZE = 1_000;
/** How many of the newest requests keep their bodies: the list stays a few hundred KB at most. */
export const BODIES_KEPT = 100;

export class RequestLog {
  readonly #ring: Slot[] = Array.from({ length: REQUEST_LOG_SIZE }, emptySlot);
  /** Where the next record goes. */
  #next = 0;
  #onRecord: () => void = () => {};
  #keeper: ((change: RequestLogChange) => void) | undefined;

  /** Called after every record (the dashboard's live updates); one listener. */
  onRecord(listener: () => void): void {
    this.#onRecord = listener;
  }

  /** Called with every record and clear from now on, in order (a store of the log); one keeper. */
  keep(keeper: (change: RequestLogChange) => void): void {
    this.#keeper = keeper;
  }

  /**
   * Puts back requests a keeper stored (oldest first), as if recorded again: past the ring's
   * size the oldest go, past BODIES_KEPT their bodies. Tells no one.
   */
  restore(requests: Iterable<LoggedRequest>): void {
    for (const r of requests) {
      const { at, method, path, status, durationMs, traceparent } = r;
      this.#write(
        at,
        method,
        path,
        status,
        durationMs,
        r.request_id,
        traceparent,
        r.requestBody,
        r.responseBody,
      );
    }
  }

  record(
    at: number,
    method: string,
    path: string,
    status: number,
    durationMs: number,
    requestId: string,
    traceparent = '',
    bodies?: RecordedBodies,
  ): void {
    // Kept as sent, but bounded: a header is the caller's to fill.
    const bounded = traceparent.slice(0, 128);
    const request = bodies?.request ?? '';
    const response = bodies?.response ?? '';
    const slot = this.#write(
      at,
      method,
      path,
      status,
      durationMs,
      requestId,
      bounded,
      request,
      response,
    );
    // A copy, and only for a keeper: without one a request allocates no record here.
    this.#keeper?.({ op: 'record', request: { ...slot } });
    this.#onRecord();
  }

  /** Writes over the oldest slot; the request BODIES_KEPT before it lets its bodies go. */
  #write(
    at: number,
    method: string,
    path: string,
    status: number,
    durationMs: number,
    requestId: string,
    traceparent: string,
    requestBody: string,
    responseBody: string,
  ): Slot {
    const slot = this.#ring[this.#next]!;
    slot.at = at;
    slot.method = method;
    slot.path = path;
    slot.status = status;
    slot.durationMs = durationMs;
    slot.request_id = requestId;
    slot.traceparent = traceparent;
    slot.requestBody = requestBody;
    slot.responseBody = responseBody;
    const old = this.#ring[(this.#next - BODIES_KEPT + REQUEST_LOG_SIZE) % REQUEST_LOG_SIZE]!;
    old.requestBody = '';
    old.responseBody = '';
    this.#next = this.#next === REQUEST_LOG_SIZE - 1 ? 0 : this.#next + 1;
    return slot;
  }

  /** Newest first; only those with this request id when one is given. */
  list(requestId?: string): RequestJson[] {
    const out: RequestJson[] = [];
    for (let i = 1; i <= REQUEST_LOG_SIZE; i++) {
      const r = this.#ring[(this.#next - i + REQUEST_LOG_SIZE) % REQUEST_LOG_SIZE]!;
      if (r.at === 0) break;
      if (requestId !== undefined && r.request_id !== requestId) continue;
      out.push({
        at: new Date(r.at).toISOString(),
        method: r.method,
        path: r.path,
        status: r.status,
        // Microseconds are noise at this scale; a tenth of a millisecond reads well.
        durationMs: Math.round(r.durationMs * 10) / 10,
        request_id: r.request_id,
        ...(r.traceparent === '' ? {} : { traceparent: r.traceparent }),
        ...(r.requestBody === '' ? {} : { request_body: r.requestBody }),
        ...(r.responseBody === '' ? {} : { response_body: r.responseBody }),
      });
    }
    return out;
  }

  clear(): void {
    for (const slot of this.#ring) Object.assign(slot, emptySlot());
    this.#next = 0;
    this.#keeper?.({ op: 'clear' });
  }
}
