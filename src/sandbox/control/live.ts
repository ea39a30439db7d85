// Live updates for the dashboard: which parts of the sandbox changed, pushed as server-sent
// events (`GET /sandbox/events`). The updates follow the store's change stream (the same one
// the data file's journal follows) and the request log; nothing else tells them anything. A
// burst of changes (a checkout settles in several steps, a load test sends thousands of
// requests) becomes one event per LIVE_INTERVAL_MS naming the topics; the page then fetches
// only those. While nobody listens, a change costs one check: the provider routes pay nothing
// for a dashboard that is not open.

import type { RequestLog } from '../state/request-log.ts';
import type { Change, Kind, Store } from '../state/store.ts';

export type Topic = 'state' | 'deliveries' | 'webhook-faults' | 'outcomes' | 'requests' | 'clock';

const ALL_TOPICS: readonly Topic[] = [
  'state',
  'deliveries',
  'webhook-faults',
  'outcomes',
  'requests',
  'clock',
];

/** The topic each collection's changes belong to; provider faults are not on the dashboard. */
const TOPIC_OF: Record<Kind, Topic | undefined> = {
  checkouts: 'state',
  transactions: 'state',
  customers: 'state',
  instruments: 'state',
  devices: 'state',
  readers: 'state',
  readerCheckouts: 'state',
  operators: 'state',
  deliveries: 'deliveries',
  webhookFaults: 'webhook-faults',
  outcomes: 'outcomes',
  faults: undefined,
};

function topicsOf(change: Change): readonly Topic[] {
  switch (change.op) {
    case 'put':
    case 'remove': {
      const topic = TOPIC_OF[change.kind];
      return topic === undefined ? [] : [topic];
    }
    case 'clock':
      return ['clock'];
    case 'reset':
      return ALL_TOPICS;
  }
}

const LIVE_INTERVAL_MS = 50;
/** A comment line now and then keeps proxies and idle sockets from closing the stream. */
const KEEPALIVE_MS = 15_000;

type Listener = (chunk: string) => void;

export class LiveUpdates {
  readonly #listeners = new Set<Listener>();
  readonly #pending = new Set<Topic>();
  #flush: ReturnType<typeof setTimeout> | undefined;
  #keepalive: ReturnType<typeof setInterval> | undefined;

  /** Follows the store's changes and the request log until `close`. */
  follow(store: Store, requests: RequestLog): void {
    store.subscribe((changes) => {
      if (this.#listeners.size === 0) return;
      for (const change of changes) for (const topic of topicsOf(change)) this.#changed(topic);
    });
    requests.onRecord(() => {
      if (this.#listeners.size > 0) this.#changed('requests');
    });
  }

  #changed(topic: Topic): void {
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
        if (this.#keepalive === undefined) {
          this.#keepalive = setInterval(() => this.#broadcast(': keepalive\n\n'), KEEPALIVE_MS);
          // Node's timer lets the process exit while only streams are open; a browser's (the
          // site's worker runs the sandbox) is a number, with nothing to call.
          (this.#keepalive as { unref?: () => void }).unref?.();
        }
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
