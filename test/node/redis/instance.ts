// One handler instance in its own process, as a shop runs several behind a load balancer:
// `createPaymentHandler` with the Redis store, on node:http on a free loopback port. The
// parent (cluster.ts) sends its settings in PW_INSTANCE and hears back over IPC: `ready`,
// then `started` and `finished` around every onPaid run, and `reconciled` after each pass of
// its reconciliation timer. A hook's `started` is sent and acknowledged before the hook goes
// on, so a run cut short by SIGKILL still shows.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPaymentHandler,
  type RateLimitOptions,
  type RedisStoreOptions,
  toNodeListener,
} from '../../../src/server/index.ts';
import { type ClientKind, connectClient, testRedisStore } from '../support/redis-clients.ts';
import type { RedisTarget } from '../support/redis-topologies.ts';

export interface InstanceConfig {
  name: string;
  client: ClientKind;
  /** One Redis, a Cluster or a primary under Sentinel. */
  redis: RedisTarget;
  /** `createRedisStore`'s options. */
  store?: RedisStoreOptions;
  /** Default: no limit on checkouts created per client. */
  rateLimit?: RateLimitOptions;
  providerUrl: string;
  apiKey: string;
  merchantCode: string;
  /** The load balancer's mount URL: what the checkouts' webhook and return URLs point at. */
  publicUrl: string;
  origin: string;
  leaseMs: number;
  /** How long onPaid takes. */
  hookMs: number;
  /** onPaid never returns: the instance is to be killed mid-hook. */
  hang?: boolean;
  /** Runs `handler.reconcile()` this often, as a shop's timer would. */
  reconcileEveryMs?: number;
}

export type InstanceMessage =
  | { type: 'ready'; port: number }
  | { type: 'started' | 'finished'; checkoutId: string; at: number }
  | { type: 'log'; level: string; message: string; checkoutId?: string }
  /** The answer to a ParentMessage: the timer runs (or is held) from now on. */
  | { type: 'reconciling'; on: boolean }
  /** A pass of the reconciliation timer ended (whatever it found): when it began. */
  | { type: 'reconciled'; startedAt: number };

/** What the parent tells an instance: whether its reconciliation timer runs. */
export type ParentMessage = { type: 'reconcile'; on: boolean };

function send(message: InstanceMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error('instance.ts runs as a child process with an IPC channel'));
      return;
    }
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

// The parent is gone (it finished, or failed and was killed): so is this instance.
process.on('disconnect', () => process.exit(0));

const config = JSON.parse(process.env.PW_INSTANCE ?? '') as InstanceConfig;
// Redis going away is part of the tests; the store reports what it meant for the hooks.
const redis = await connectClient(config.client, config.redis);

const handler = createPaymentHandler({
  provider: {
    baseUrl: config.providerUrl,
    apiKey: config.apiKey,
    merchantCode: config.merchantCode,
  },
  publicUrl: config.publicUrl,
  allowedOrigins: [config.origin],
  resultPages: {
    success: '/paid',
    failure: '/failed',
  },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  store: testRedisStore(redis.client, config.store),
  hooks: {
    leaseMs: config.leaseMs,
    async onPaid(checkout) {
      const checkoutId = checkout.id ?? '';
      await send({ type: 'started', checkoutId, at: Date.now() });
      await new Promise<void>((resolve) => {
        if (!config.hang) setTimeout(resolve, config.hookMs);
      });
      await send({ type: 'finished', checkoutId, at: Date.now() });
    },
  },
  // The tests' one HTTP client creates hundreds of checkouts, standing in for as many
  // shoppers (test/node/redis/rate-limit.test.ts is where the limits are tested).
  rateLimit: config.rateLimit ?? { checkoutsPerClient: false },
  logger(entry) {
    if (entry.level === 'info') return;
    const checkoutId = typeof entry.checkoutId === 'string' ? entry.checkoutId : undefined;
    void send({ type: 'log', level: entry.level, message: entry.message, checkoutId }).catch(
      () => {},
    );
  },
});

// The parent may hold an instance's timer, to see which instances reconcile.
let reconciling = true;
process.on('message', (message: ParentMessage) => {
  if (message.type !== 'reconcile') return;
  reconciling = message.on;
  void send({ type: 'reconciling', on: message.on });
});

if (config.reconcileEveryMs !== undefined) {
  setInterval(() => {
    if (!reconciling) return;
    const startedAt = Date.now();
    handler
      .reconcile()
      .catch((error: unknown) => {
        void send({ type: 'log', level: 'error', message: `reconcile: ${String(error)}` });
      })
      .finally(() => {
        void send({ type: 'reconciled', startedAt }).catch(() => {});
      });
  }, config.reconcileEveryMs);
}

// Idle connections are kept longer than any test's pauses: a client reusing one just as the
// server's idle timer (5 s by default, late on a loaded machine) closes it sees "other side
// closed", a race of the test's plumbing and not the handler's answer.
const server = createServer({ keepAliveTimeout: 60_000 }, toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  void send({ type: 'ready', port: (server.address() as AddressInfo).port });
});
