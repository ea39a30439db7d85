// What every Redis topology must hold, run by topology-*.test.ts on one Redis, a Redis
// Cluster and a primary under Sentinel: four handler instances, two on node-redis and two on
// ioredis, each reconciling every INTERVAL_MS, behind the round-robin balancer of cluster.ts.
// - Per client: 60 checkouts paid at the provider and reported to both instances of its pair
//   at once by the return page, the webhook and polling (and the sandbox's own webhook and
//   reconciliation on any instance): onPaid once each.
// - The rate limits answer 429 across instances: one checkout's payment attempts, sent to the
//   two of a pair (and to all four) at once, reach the provider as often as the limit says.
// - Reconciliation, per client with the other pair's timers held: checkouts paid behind the
//   handler's back with every webhook dropped: each onPaid runs once, within an interval or
//   two, on the pair.
// The incidents (one Redis stopped, a primary killed) are incident.ts's, run by the
// topology-*.test.ts files that have one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentStore } from '../../../src/server/index.ts';
import { redisConnection } from '../../../src/server/store/redis-client.ts';
import { scaled, until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  CLIENT_NAMES,
  type ConnectedClient,
  connectClient,
  kindsFor,
  testRedisStore,
} from '../support/redis-clients.ts';
import { redisStoreContract } from '../support/redis-store-contract.ts';
import { cli, type RedisTarget } from '../support/redis-topologies.ts';
import {
  type Cluster,
  type Instance,
  reconciledAfter,
  startCluster,
  summarize,
} from './cluster.ts';
import {
  createThrough,
  dropWebhooks,
  paidBehind,
  paidCheckout,
  reportEverywhere,
} from './shopper.ts';

/** How often each instance reconciles. */
export const INTERVAL_MS = 1_000;
/**
 * What a loaded machine may add to a deadline counted in intervals: the timer's drift,
 * reading the provider's list, IPC back to the test (scaled to this machine). Printed apart
 * from the measure.
 */
export const SLACK_MS = scaled(1_500);
/** The per-checkout payment limit (the default: 5 attempts per hour). */
const PAYMENTS_PER_CHECKOUT = 5;

const CLIENTS = ['redis', 'ioredis'] as const;

const NAMES: Record<RedisTarget['kind'], string> = {
  single: 'one Redis',
  cluster: 'Redis Cluster',
  sentinel: 'Sentinel',
};

/** How each package's client on a topology is made: what the store must tell it is. */
const MADE: Record<RedisTarget['kind'], { ioredis: RegExp; redis: RegExp }> = {
  single: { ioredis: /new Redis\(\)/, redis: /createClient/ },
  cluster: { ioredis: /Redis\.Cluster/, redis: /createCluster/ },
  sentinel: { ioredis: /sentinels/, redis: /createSentinel/ },
};

/** SCRIPT FLUSH on every primary of `c`: each forgets the store's scripts. */
async function flushScripts(c: Cluster): Promise<void> {
  const ports = c.target.kind === 'cluster' ? c.target.nodes.map((n) => n.port) : [c.redis.port];
  await Promise.all(ports.map((port) => cli(port, 'SCRIPT', 'FLUSH')));
}

/** The store's contract through every package that reaches `topology`, in this process. */
function storeContract(topology: RedisTarget['kind'], cluster: () => Cluster): void {
  for (const kind of kindsFor(topology)) {
    describe(`the Redis store (${NAMES[topology]}) through ${CLIENT_NAMES[kind]}`, () => {
      let connected: ConnectedClient;
      let store: PaymentStore;
      const prefix = `${topology}-${kind}:`;

      before(async () => {
        connected = await connectClient(kind, cluster().target);
        store = testRedisStore(connected.client, { prefix });
      });

      after(async () => {
        await connected?.close();
      });

      test('tells what the client is', () => {
        const { topology: told, made } = redisConnection(connected.client);
        assert.equal(told, topology);
        assert.match(made, MADE[topology][kind === 'ioredis' ? 'ioredis' : 'redis']);
        if (topology !== 'cluster') return;
        // WAIT names no key: a Cluster client could not send it to the key's primary.
        assert.throws(
          () =>
            testRedisStore(connected.client, {
              waitForReplicas: { replicas: 1, timeoutMs: 100 },
            }),
          /waitForReplicas is not supported on a Cluster/,
        );
      });

      redisStoreContract(
        () => ({
          store,
          prefix,
          command: (...args) => connected.command(...args),
          flushScripts: () => flushScripts(cluster()),
        }),
        kind,
      );
    });
  }
}

/**
 * Registers what every topology runs (with `contract`, the store's contract in this process
 * first), and answers the file's cluster and the checkouts whose hooks must have run once.
 * The file's own tests come after, and may break the store.
 */
export function topologyTests(
  topology: RedisTarget['kind'],
  options: { contract: boolean },
): { cluster: () => Cluster; ids: string[] } {
  let started: Cluster | undefined;
  const cluster = () => started!;
  const ids: string[] = [];
  const name = NAMES[topology];

  before(async () => {
    started = await startTopology(topology);
  });

  after(async () => {
    await started?.stop();
  });

  if (options.contract) storeContract(topology, cluster);

  for (const client of CLIENTS) {
    test(`${name}, ${client}: 60 checkouts raced on two instances run onPaid once each`, async () => {
      ids.push(...(await race(cluster(), pairOf(cluster(), client), `${name}, ${client}`)));
    });
  }

  for (const client of CLIENTS) {
    test(`${name}, ${client}: the rate limits answer 429 across two instances`, async () => {
      await rateLimitsAcross(pairOf(cluster(), client), `${name}, ${client}`);
    });
  }
  test(`${name}: the rate limits answer 429 across instances of both packages`, async () => {
    await rateLimitsAcross(cluster().instances, name);
  });

  for (const client of CLIENTS) {
    test(`${name}, ${client}: reconciliation on two instances runs each due hook once`, async () => {
      const c = cluster();
      const pair = pairOf(c, client);
      const others = c.instances.filter((i) => !pair.includes(i));
      await Promise.all(others.map((i) => i.reconciling(false)));
      try {
        ids.push(...(await reconcileEach(c, pair, `${name}, ${client}`)));
      } finally {
        await Promise.all(others.map((i) => i.reconciling(true)));
      }
    });
  }

  test(`${name}: so far no onPaid ran twice, no instance logged a problem`, () => {
    const c = cluster();
    assert.deepEqual(c.tally.counts(ids), { once: ids.length, more: 0, never: 0 });
    // The first refusal of each rate test is logged once, by whichever instance counted it.
    const reached = c.tally.problems.filter((p) => p.message.startsWith('rate limit'));
    assert.equal(reached.length, CLIENTS.length + 1);
    assert.deepEqual(
      c.tally.problems.filter((p) => !reached.includes(p)),
      [],
    );
  });

  return { cluster, ids };
}

/** The sandbox, the topology and four instances: `redis-1`, `redis-2`, `ioredis-1`, `ioredis-2`. */
function startTopology(topology: RedisTarget['kind']): Promise<Cluster> {
  return startCluster({
    topology,
    // Every write acknowledged survives a kill (everysec before 7.2 may lose one: docs/stores.md).
    persistentRedis: topology === 'single' ? 'always' : false,
    webhook: { attempts: 20, initialDelayMs: 100, maxDelayMs: 500 },
    balancer: 'round-robin',
    // Longer than an incident: a hook running when the store went away keeps its claim, and
    // is recorded done once it is back, instead of being taken over and run again.
    leaseMs: 15_000,
    hookMs: 5,
    reconcileEveryMs: INTERVAL_MS,
    // Per-client payments counted (in one script with the per-checkout counter, so across
    // two keys on a Cluster) but never reached by the tests' one address.
    rateLimit: { checkoutsPerClient: false, paymentsPerClient: { limit: 100_000 } },
    instances: CLIENTS.flatMap((client) => [
      { name: `${client}-1`, client },
      { name: `${client}-2`, client },
    ]),
  });
}

/** The two instances on `client`. */
function pairOf(c: Cluster, client: (typeof CLIENTS)[number]): [Instance, Instance] {
  const pair = c.instances.filter((i) => i.name.startsWith(`${client}-`));
  assert.equal(pair.length, 2);
  return pair as [Instance, Instance];
}

/** `count` calls of `one`, `width` at a time, their answers in the order they came. */
export async function inParallel<T>(count: number, width: number, one: (i: number) => Promise<T>) {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) out.push(await one(next++));
    }),
  );
  return out;
}

/** 60 checkouts reported to both instances of `pair` six ways at once: onPaid once each. */
async function race(c: Cluster, pair: [Instance, Instance], label: string) {
  const started = performance.now();
  let busy = 0;
  const ids = await inParallel(60, 8, async (i) => {
    const id = await paidCheckout(c, pair[i % 2]!);
    busy += await reportEverywhere(pair, id);
    return id;
  });
  await until('every hook to finish', () => c.tally.allFinished(ids), 10_000);
  // Counted once the reports in flight are answered and every timer has looked again.
  await reconciledAfter(
    c,
    ids,
    c.instances.filter((i) => i.alive),
  );
  const counts = c.tally.counts(ids);
  const ranOn = new Set(ids.flatMap((id) => c.tally.finished.get(id)!.map((r) => r.instance)));
  console.log(
    `${label}: 60 checkouts reported by return, webhook and polling to ${pair.map((i) => i.name).join(' and ')}: ` +
      `onPaid once ${counts.once}, more than once ${counts.more}, never ${counts.never} (ran on ${[...ranOn].sort().join(', ')}); ` +
      `${busy} reported webhooks told to come back, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  assert.deepEqual(counts, { once: 60, more: 0, never: 0 });
  return ids;
}

/** Eight attempts on one checkout sent to every instance at once: the limit holds across them. */
async function rateLimitsAcross(instances: readonly Instance[], label: string): Promise<void> {
  const id = await createThrough(instances[0]!);
  const answers = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const instance = instances[i % instances.length]!;
      const res = await fetch(`${instance.url}/checkouts/${id}`, {
        method: 'PUT',
        headers: { origin: 'http://shop.test', 'content-type': 'application/json' },
        // A 3DS card: the first attempt waits at its challenge, so none is charged.
        body: JSON.stringify(cardBody('4200000000000042')),
      });
      const retryAfter = res.headers.get('retry-after');
      const body = (await res.json()) as { error?: { code: string } };
      return { status: res.status, code: body.error?.code, retryAfter };
    }),
  );
  const refused = answers.filter((a) => a.status === 429);
  console.log(
    `${label}: 8 attempts on one checkout over ${instances.map((i) => i.name).join(', ')}: ${answers.map((a) => a.status).join(' ')}`,
  );
  assert.equal(answers.length - refused.length, PAYMENTS_PER_CHECKOUT);
  assert.ok(refused.every((a) => a.code === 'TOO_MANY_REQUESTS' && Number(a.retryAfter) >= 1));
}

/** Twelve 3DS checkouts paid through `pair` with no return and every webhook dropped: its reconciliation runs each once. */
async function reconcileEach(
  c: Cluster,
  pair: readonly Instance[],
  label: string,
): Promise<string[]> {
  await dropWebhooks(c, 10_000);
  const paidAt = await paidBehind(pair, 12);
  const ids = [...paidAt.keys()];
  await until(
    () => `every onPaid (${JSON.stringify(c.tally.counts(ids))})`,
    () => c.tally.allFinished(ids),
    INTERVAL_MS * 2 + SLACK_MS * 4,
  );
  // Counted once both instances of the pair have looked again.
  await reconciledAfter(c, ids, pair);
  await dropWebhooks(c, 0);
  const late = ids.map((id) => c.tally.finished.get(id)![0]!.at - paidAt.get(id)!);
  const ranOn = ids.map((id) => c.tally.finished.get(id)![0]!.instance);
  console.log(
    `${label}: 12 checkouts paid behind the handler, webhooks dropped: onPaid ${JSON.stringify(c.tally.counts(ids))}, ` +
      `at most ${Math.max(...late)} ms after the payment (interval ${INTERVAL_MS} ms), run by ${summarize(ranOn.sort())}`,
  );
  assert.deepEqual(c.tally.counts(ids), { once: 12, more: 0, never: 0 });
  assert.ok(
    ranOn.every((name) => pair.some((i) => i.name === name)),
    'run by the reconciling pair',
  );
  for (const [i, id] of ids.entries()) {
    assert.ok(
      late[i]! <= INTERVAL_MS * 2 + SLACK_MS,
      `${id}: onPaid ${late[i]} ms after its payment`,
    );
  }
  return ids;
}
