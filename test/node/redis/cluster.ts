// The parent's side of the multi-process tests: real Redis servers (one, a Redis Cluster,
// or a primary and a replica under Sentinel), the sandbox, handler instances in child
// processes (instance.ts), a load balancer in front of them (what the provider's webhooks
// reach, as the checkouts' URLs point at it), the tally of hook runs they report, and the
// sandbox's webhook attempts read from its log. Every wait is bounded; `Cluster.stop` ends
// everything, also after a start that failed half-way.
import { fork } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';
import {
  createProviderClient,
  type ProviderClient,
  type RateLimitOptions,
  type RedisStoreOptions,
} from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import { exited, killAtExit } from '../support/children.ts';
import { listenLoopback } from '../support/loopback.ts';
import type { ClientKind } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';
import {
  type RedisSentinel,
  type RedisTarget,
  startRedisCluster,
  startRedisSentinel,
} from '../support/redis-topologies.ts';
import type { InstanceConfig, InstanceMessage, ParentMessage } from './instance.ts';

/** The page origin the instances allow. */
export const ORIGIN = 'http://shop.test';

// tsx compiles each child on start: on a loaded 2-core machine that alone has taken 30 s.
const READY_TIMEOUT_MS = scaled(60_000);

export interface Instance {
  name: string;
  /** `http://127.0.0.1:{port}/payments` */
  url: string;
  alive: boolean;
  /** SIGKILL: the instance dies mid-whatever, as in a crash or a deploy's hard stop. */
  kill(): Promise<void>;
  /** Holds or resumes its reconciliation timer; resolves once the instance has heard. */
  reconciling(on: boolean): Promise<void>;
}

async function startInstance(
  config: InstanceConfig,
  onMessage: (instance: string, message: InstanceMessage) => void,
): Promise<Instance> {
  const child = fork(new URL('./instance.ts', import.meta.url), [], {
    // Node strips the types itself, as for the test files (scripts/node-tests.mjs), and keeps
    // their compile cache (NODE_COMPILE_CACHE, inherited): tsx's loader cost each instance
    // about half a CPU-second more to start.
    execArgv: [],
    env: { ...process.env, PW_INSTANCE: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  killAtExit(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance ${config.name} not ready after ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`instance ${config.name} exited before it was ready (${code ?? signal})`));
    });
    child.on('message', (message: InstanceMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.port);
      } else {
        onMessage(config.name, message);
      }
    });
  });
  const instance: Instance = {
    name: config.name,
    url: `http://127.0.0.1:${port}/payments`,
    alive: true,
    async kill() {
      instance.alive = false;
      child.kill('SIGKILL');
      await exited(child);
    },
    reconciling: (on) =>
      new Promise((resolve, reject) => {
        const heard = (answer: InstanceMessage) => {
          if (answer.type !== 'reconciling' || answer.on !== on) return;
          child.off('message', heard);
          resolve();
        };
        child.on('message', heard);
        const message: ParentMessage = { type: 'reconcile', on };
        child.send(message, (error) => error && reject(error));
      }),
  };
  return instance;
}

/** What the instances said about onPaid, per checkout. */
class HookTally {
  readonly started = new Map<string, { instance: string; at: number }[]>();
  readonly finished = new Map<string, { instance: string; at: number }[]>();
  readonly problems: { instance: string; level: string; message: string; checkoutId?: string }[] =
    [];
  /** Per instance, when each finished pass of its reconciliation timer began. */
  readonly passes = new Map<string, number[]>();

  readonly record = (instance: string, message: InstanceMessage) => {
    if (message.type === 'reconciled') {
      this.passes.set(instance, [...(this.passes.get(instance) ?? []), message.startedAt]);
      return;
    }
    if (message.type === 'log') {
      const { level, message: text, checkoutId } = message;
      this.problems.push({ instance, level, message: text, ...(checkoutId ? { checkoutId } : {}) });
      return;
    }
    if (message.type !== 'started' && message.type !== 'finished') return;
    const map = message.type === 'started' ? this.started : this.finished;
    const runs = map.get(message.checkoutId) ?? [];
    runs.push({ instance, at: message.at });
    map.set(message.checkoutId, runs);
  };

  /** Every one of `ids` has a finished run. */
  allFinished(ids: readonly string[]): boolean {
    return ids.every((id) => (this.finished.get(id)?.length ?? 0) > 0);
  }

  /** When the last finished run of `ids` ended (0 when none has). */
  lastFinished(ids: readonly string[]): number {
    return Math.max(0, ...ids.flatMap((id) => (this.finished.get(id) ?? []).map((r) => r.at)));
  }

  /** Runs per checkout: once, more than once (started twice or more), never (no finished run). */
  counts(ids: readonly string[]): { once: number; more: number; never: number } {
    let once = 0;
    let more = 0;
    let never = 0;
    for (const id of ids) {
      const started = this.started.get(id)?.length ?? 0;
      const finished = this.finished.get(id)?.length ?? 0;
      if (started > 1 || finished > 1) more += 1;
      else if (finished === 1) once += 1;
      else never += 1;
    }
    return { once, more, never };
  }
}

/**
 * Waits until each of `instances` (whose reconciliation timers run) has finished a pass that
 * began after every run of `ids` had finished: by then the reports that were in flight (a
 * poll's background report, a retried webhook) have long been answered, and the passes,
 * which would run a hook whose claim was lost, have looked. A count of runs taken after this
 * is final.
 */
export async function reconciledAfter(
  c: Cluster,
  ids: readonly string[],
  instances: readonly Instance[],
): Promise<void> {
  const since = c.tally.lastFinished(ids);
  await until(
    () => `a reconciliation pass by ${instances.map((i) => i.name).join(' and ')} after ${since}`,
    () =>
      instances.every((i) =>
        (c.tally.passes.get(i.name) ?? []).some((startedAt) => startedAt > since),
      ),
  );
}

/** The sandbox's webhook attempts, read from its log: how each was answered. */
class WebhookLog {
  readonly #answers: string[] = [];
  acknowledged = 0;
  /** Deliveries the sandbox stopped retrying, their last attempt not acknowledged. */
  givenUp = 0;

  readonly line = (line: string) => {
    const match = /^webhook \S+ attempt (\d+)\/(\d+): (\S+)$/.exec(line);
    if (match === null) return;
    const answer = match[3]!;
    this.#answers.push(answer);
    if (/^2\d\d$/.test(answer)) this.acknowledged += 1;
    else if (match[1] === match[2]) this.givenUp += 1;
  };

  /** How each attempt was answered, as `summarize` writes it. */
  summary(): string {
    return summarize(this.#answers);
  }
}

/** Each answer with how often it came, in the order first seen: `204×3 503×1`. */
export function summarize(answers: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  return [...counts].map(([answer, n]) => `${answer}×${n}`).join(' ');
}

interface Balancer {
  /** `http://127.0.0.1:{port}` */
  url: string;
  close(): Promise<void>;
}

/**
 * A load balancer on loopback: each request goes to a live instance, `round-robin` or always
 * the `first` live one; one that cannot be reached is a 502, as a real balancer answers.
 */
async function startBalancer(
  instances: () => readonly Instance[],
  policy: 'round-robin' | 'first',
  refuseWebhooks: boolean,
): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true });
  let turn = 0;
  // Idle connections outlive the tests' pauses (as the instances' do, instance.ts).
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    if (refuseWebhooks && req.method === 'POST' && req.url?.endsWith('/webhook')) {
      // The shop's endpoint is down for the provider's whole retry window.
      req.resume();
      res.writeHead(503).end();
      return;
    }
    const live = instances().filter((i) => i.alive);
    const target = policy === 'first' ? live[0] : live[turn++ % Math.max(1, live.length)];
    const fail = () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    };
    if (target === undefined) {
      req.resume();
      fail();
      return;
    }
    const url = new URL(req.url ?? '/', new URL(target.url).origin);
    const upstream = httpRequest(url, { method: req.method, headers: req.headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.once('error', fail);
    });
    upstream.once('error', fail);
    req.pipe(upstream);
  });
  const listening = await listenLoopback(server);
  return {
    url: listening.url,
    close: () => {
      agent.destroy();
      return listening.close();
    },
  };
}

interface ClusterOptions {
  /** One Redis (the default), a Redis Cluster of three masters, or a primary under Sentinel. */
  topology?: RedisTarget['kind'];
  /** The one Redis keeps its keys across a kill and restart (append-only file; redis-server.ts). */
  persistentRedis?: boolean | 'always';
  /** The sandbox's webhook retry schedule. */
  webhook: NonNullable<SandboxOptions['webhook']>;
  balancer: 'round-robin' | 'first';
  leaseMs: number;
  hookMs: number;
  instances: { name: string; client: ClientKind; hang?: boolean }[];
  /** Every instance reconciles this often. */
  reconcileEveryMs?: number;
  /** The balancer answers every webhook delivery 503, as an endpoint that is down. */
  refuseWebhooks?: boolean;
  /** The instances' rate limits; default: no limit on checkouts created per client. */
  rateLimit?: RateLimitOptions;
  /** The instances' `createRedisStore` options. */
  store?: RedisStoreOptions;
}

export interface Cluster {
  /** The one Redis; on a Cluster, its first master; under Sentinel, the first primary. */
  redis: RedisServer;
  /** How the instances reach the store. */
  target: RedisTarget;
  /** The replica and the sentinels, under Sentinel. */
  sentinel?: RedisSentinel;
  sandbox: Sandbox;
  provider: ProviderClient;
  /** In the order of `ClusterOptions.instances`. */
  instances: Instance[];
  tally: HookTally;
  webhooks: WebhookLog;
  stop(): Promise<void>;
}

/** The Redis servers of `options.topology`, and what the instances connect to. */
async function startStore(options: ClusterOptions) {
  switch (options.topology ?? 'single') {
    case 'single': {
      const redis = await startRedisServer({ persistent: options.persistentRedis ?? false });
      const target: RedisTarget = { kind: 'single', url: redis.url };
      return { redis, target, sentinel: undefined, stopRedis: () => redis.stop() };
    }
    case 'cluster': {
      const cluster = await startRedisCluster();
      return {
        redis: cluster.nodes[0]!,
        target: cluster.target,
        sentinel: undefined,
        stopRedis: () => cluster.stop(),
      };
    }
    case 'sentinel': {
      const sentinel = await startRedisSentinel();
      return {
        redis: sentinel.primary,
        target: sentinel.target,
        sentinel,
        stopRedis: () => sentinel.stop(),
      };
    }
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const tally = new HookTally();
  const webhooks = new WebhookLog();
  const instances: Instance[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    for (const step of stops.reverse()) await step();
  };
  try {
    const { redis, target, sentinel, stopRedis } = await startStore(options);
    stops.push(stopRedis);
    const sandbox = await createSandbox({ webhook: options.webhook, log: webhooks.line });
    stops.push(() => sandbox.close());
    const balancer = await startBalancer(
      () => instances,
      options.balancer,
      options.refuseWebhooks ?? false,
    );
    stops.push(() => balancer.close());
    const base = {
      redis: target,
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.store === undefined ? {} : { store: options.store }),
      providerUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      merchantCode: sandbox.merchantCode,
      publicUrl: `${balancer.url}/payments`,
      origin: ORIGIN,
      leaseMs: options.leaseMs,
      hookMs: options.hookMs,
      ...(options.reconcileEveryMs === undefined
        ? {}
        : { reconcileEveryMs: options.reconcileEveryMs }),
    };
    const started = await Promise.allSettled(
      options.instances.map((instance) => startInstance({ ...base, ...instance }, tally.record)),
    );
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const provider = createProviderClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    return {
      redis,
      target,
      ...(sentinel === undefined ? {} : { sentinel }),
      sandbox,
      provider,
      instances,
      tally,
      webhooks,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
