// What the dashboard shows, kept current: one read of each control-surface resource at start, then
// the sandbox's event stream (`GET /sandbox/events`) names what changed and only that is
// read again. One read per resource at a time; a change during a read reads once more after.

import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Topic } from '../control/live.ts';
import { ApiFailure, fromPage, getJson } from './api.ts';
import type { Delivery, OutcomeRule, Overview, RequestEntry, WebhookFault } from './types.ts';

type Resource = 'overview' | 'deliveries' | 'faults' | 'outcomes' | 'requests';

/** Which reads each topic of the event stream calls for. */
const READS: Record<Topic, Resource[]> = {
  state: ['overview'],
  clock: ['overview'],
  deliveries: ['deliveries', 'faults'],
  'webhook-faults': ['faults'],
  outcomes: ['outcomes'],
  requests: ['requests'],
};

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'signed-out';

export class LiveData implements ReactiveController {
  overview: Overview | undefined;
  deliveries: Delivery[] = [];
  faults: WebhookFault[] = [];
  outcomes: OutcomeRule[] = [];
  requests: RequestEntry[] = [];
  /** Show only the requests with this id (empty: all). */
  requestFilter = '';
  connection: Connection = 'connecting';
  /** The last read that failed for another reason than sign-in. */
  problem = '';

  readonly #host: ReactiveControllerHost;
  #source: EventSource | undefined;
  readonly #running = new Map<Resource, Promise<void>>();
  readonly #again = new Set<Resource>();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    void this.start();
  }

  hostDisconnected(): void {
    this.#source?.close();
    this.#source = undefined;
  }

  /** Reads everything, then listens; after a sign-in too. */
  async start(): Promise<void> {
    this.connection = 'connecting';
    this.#host.requestUpdate();
    if (!(await this.readAll())) return;
    this.#listen();
  }

  /** Reads every resource; false when the page must sign in first. */
  async readAll(): Promise<boolean> {
    await Promise.all(
      (['overview', 'deliveries', 'faults', 'outcomes', 'requests'] as const).map((r) =>
        this.read(r),
      ),
    );
    return this.connection !== 'signed-out';
  }

  /** Reads one resource now (or once more after the read under way). */
  read(resource: Resource): Promise<void> {
    const running = this.#running.get(resource);
    if (running) {
      this.#again.add(resource);
      return running;
    }
    const done = this.#fetch(resource)
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#running.delete(resource);
        this.#host.requestUpdate();
        if (this.#again.delete(resource)) void this.read(resource);
      });
    this.#running.set(resource, done);
    return done;
  }

  async #fetch(resource: Resource): Promise<void> {
    switch (resource) {
      case 'overview':
        this.overview = await getJson<Overview>('/sandbox/overview');
        break;
      case 'deliveries':
        this.deliveries = await getJson<Delivery[]>('/sandbox/webhook-deliveries');
        break;
      case 'faults':
        this.faults = await getJson<WebhookFault[]>('/sandbox/webhook-faults');
        break;
      case 'outcomes':
        this.outcomes = await getJson<OutcomeRule[]>('/sandbox/outcomes');
        break;
      case 'requests': {
        const query = this.requestFilter
          ? `?request_id=${encodeURIComponent(this.requestFilter)}`
          : '';
        this.requests = await getJson<RequestEntry[]>(`/sandbox/requests${query}`);
        break;
      }
    }
    this.problem = '';
  }

  #failed(error: unknown): void {
    if (error instanceof ApiFailure && error.status === 401) {
      this.connection = 'signed-out';
      this.#source?.close();
      this.#source = undefined;
    } else {
      this.problem = error instanceof Error ? error.message : 'The sandbox did not answer';
    }
  }

  #listen(): void {
    this.#source?.close();
    const source = new EventSource(fromPage('/sandbox/events'));
    this.#source = source;
    source.addEventListener('ready', () => {
      const reconnected = this.connection === 'reconnecting';
      this.connection = 'live';
      this.#host.requestUpdate();
      // What changed while the stream was down is not coming as events: read it all.
      if (reconnected) void this.readAll();
    });
    source.addEventListener('change', (event) => {
      const topics = JSON.parse((event as MessageEvent<string>).data) as Topic[];
      const reads = new Set(topics.flatMap((topic) => READS[topic] ?? []));
      for (const resource of reads) void this.read(resource);
    });
    source.addEventListener('error', () => {
      this.connection = 'reconnecting';
      this.#host.requestUpdate();
      // A refused stream (signed out, sandbox restarted) is not retried by the browser.
      if (source.readyState === EventSource.CLOSED) {
        void this.readAll().then((signedIn) => {
          if (signedIn && this.#source === source) setTimeout(() => this.#listen(), 1_000);
        });
      }
    });
  }
}
