// Live updates for the dashboard: which parts of the sandbox changed, pushed as server-sent
// events (`GET /sandbox/events`). A burst of changes (a checkout settles in several steps,
// a load test sends thousands of requests) becomes one event per LIVE_INTERVAL_MS naming the
// topics; the page then fetches only those. While nobody listens, `changed` returns at once:
// the provider routes pay nothing for a dashboard that is not open.

export type Topic = 'state' | 'deliveries' | 'webhook-faults' | 'requests' | 'clock';

const LIVE_INTERVAL_MS = 50;
/** A comment line now and then keeps proxies and idle sockets from closing the stream. */
const KEEPALIVE_MS = 15_000;

type Listener = (chunk: string) => void;

export class LiveUpdates {
  readonly #listeners = new Set<Listener>();
  readonly #pending = new Set<Topic>();
  #flush: ReturnType<typeof setTimeout> | undefined;
  #keepalive: ReturnType<typeof setInterval> | undefined;

  get listening(): boolean {
    return this.#listeners.size > 0;
  }

  changed(topic: Topic): void {
    if (this.#listeners.size === 0) return;
    this.#pending.add(topic);
    this.#flush ??= setTimeout(() => this.#send(), LIVE_INTERVAL_MS);
  }

  /** A `text/event-stream` answer that names changed topics until the client goes away. */
  stream(): Response {
    let listener: Listener | undefined;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        listener = (chunk) => controller.enqueue(encoder.encode(chunk));
        this.#listeners.add(listener);
        this.#keepalive ??= setInterval(() => this.#broadcast(': keepalive\n\n'), KEEPALIVE_MS);
        this.#keepalive.unref();
        // Tells the page it is connected, and how long to wait before reconnecting.
        listener('retry: 1000\nevent: ready\ndata: {}\n\n');
      },
      cancel: () => {
        if (listener) this.#listeners.delete(listener);
        if (this.#listeners.size === 0) this.#stopTimers();
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  }

  /** Ends every stream (the sandbox is closing). */
  close(): void {
    this.#listeners.clear();
    this.#pending.clear();
    this.#stopTimers();
  }

  #send(): void {
    this.#flush = undefined;
    if (this.#pending.size === 0) return;
    const topics = [...this.#pending];
    this.#pending.clear();
    this.#broadcast(`event: change\ndata: ${JSON.stringify(topics)}\n\n`);
  }

  #broadcast(chunk: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(chunk);
      } catch {
        // The stream closed between two events; its cancel() removes it.
        this.#listeners.delete(listener);
      }
    }
  }

  #stopTimers(): void {
    clearTimeout(this.#flush);
    this.#flush = undefined;
    clearInterval(this.#keepalive);
    this.#keepalive = undefined;
  }
}
