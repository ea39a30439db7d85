/**
 * The Redis clients the store takes, told apart by their shape, and one way to send a command
 * through each. Nothing here imports a Redis package: the merchant's client is only called.
 *
 * - `redis` (node-redis 4 and later): `createClient()` sends `sendCommand(args)`;
 *   `createCluster()` routes by a key given first, `sendCommand(key, isReadonly, args)`;
 *   `createSentinel()` (5 and later) takes `sendCommand(isReadonly, args)` and always writes
 *   to the current primary.
 * - `ioredis` (5 and later): `call(command, ...args)` on a `Redis` (also one with
 *   `sentinels`) and on a `Redis.Cluster`, which routes by the keys it finds in the arguments.
 *
 * Each command names its key, so on a Cluster it goes to the node serving that key's slot;
 * a script's keys always share one slot (redis.ts), so its EVALSHA, and the EVAL sent after a
 * NOSCRIPT, go to the one node that must run it.
 */

import { gotInstead } from './got-instead.ts';

/** A `redis` (node-redis) client from `createClient()`. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
  /** False while the client is disconnected or reconnecting. */
  readonly isReady?: boolean;
  /** False before `connect()`, and once closed. */
  readonly isOpen?: boolean;
}

/** A `redis` (node-redis) cluster from `createCluster()`: commands are routed by a key. */
export interface NodeRedisClusterLike {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  getSlotMaster(slot: number): unknown;
  readonly isReady?: boolean;
  readonly isOpen?: boolean;
}

/** A `redis` (node-redis) client of a primary found through sentinels, from `createSentinel()`. */
export interface NodeRedisSentinelLike {
  sendCommand(isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  getMasterNode(): unknown;
  readonly isReady?: boolean;
  readonly isOpen?: boolean;
}

/** An `ioredis` client: `new Redis(url)`, `new Redis({ sentinels, name })` or `new Redis.Cluster(nodes)`. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
  /** `ready` while connected. */
  readonly status?: string;
  /** True on a `Redis.Cluster`. */
  readonly isCluster?: boolean;
}

export type RedisClientLike =
  | NodeRedisClientLike
  | NodeRedisClusterLike
  | NodeRedisSentinelLike
  | IoRedisClientLike;

export type RedisTopology = 'single' | 'cluster' | 'sentinel';

/** A client the store can use: what it is, and how one command reaches the right server. */
export interface RedisConnection {
  /** How the merchant made it, for messages: `redis createCluster()`. */
  readonly made: string;
  readonly topology: RedisTopology;
  /** Sends `args`; `key` is the key it touches, which routes it on a Cluster. */
  send(key: string, args: string[]): Promise<unknown>;
}

const SUPPORTED =
  'a connected client of redis or ioredis: redis 4 or later (createClient, createCluster, ' +
  'or createSentinel from 5 on) or ioredis 5 or later (new Redis(url), ' +
  'new Redis({ sentinels, name }) or new Redis.Cluster(nodes))';

/**
 * Fails a command at once while the client knows it is not connected: a claim must fail
 * now, not wait in the client's queue and run minutes later.
 */
function notConnected(state: string | undefined): Promise<never> {
  return Promise.reject(
    new Error(`Redis is not connected${state === undefined ? '' : ` (${state})`}`),
  );
}

/** What a client that was never connected (or was closed) needs, in its state's words. */
const CONNECT = 'await client.connect() first';
const IOREDIS_STATES: Record<string, string> = {
  wait: `wait, lazyConnect: ${CONNECT}`,
  end: `end, closed: ${CONNECT}`,
};

/** A client answering without a promise is no client of a supported version (node_redis 3). */
function promised(answer: unknown): Promise<unknown> {
  if (typeof (answer as { then?: unknown } | null)?.then === 'function') {
    return answer as Promise<unknown>;
  }
  return Promise.reject(new TypeError(`createRedisStore needs ${SUPPORTED}`));
}

function ioredis(client: IoRedisClientLike): RedisConnection {
  const topology: RedisTopology =
    client.isCluster === true
      ? 'cluster'
      : Array.isArray((client as { options?: { sentinels?: unknown } }).options?.sentinels)
        ? 'sentinel'
        : 'single';
  const made = {
    single: 'ioredis new Redis()',
    sentinel: 'ioredis new Redis({ sentinels })',
    cluster: 'ioredis new Redis.Cluster()',
  }[topology];
  return {
    made,
    topology,
    // A Cluster finds the key among the arguments itself.
    send(_key, [command, ...rest]) {
      if (client.status !== undefined && client.status !== 'ready')
        return notConnected(IOREDIS_STATES[client.status] ?? client.status);
      return promised(client.call(command!, ...rest));
    },
  };
}

/**
 * A node-redis connection: `send` is how its kind takes a command; while the client says it
 * is not ready, commands fail at once.
 */
function nodeRedis(
  client: { readonly isReady?: boolean; readonly isOpen?: boolean },
  made: string,
  topology: RedisTopology,
  send: (key: string, args: string[]) => unknown,
): RedisConnection {
  return {
    made: `redis ${made}`,
    topology,
    send(key, args) {
      // Open and not ready: reconnecting, by itself. Not open: nobody connected it.
      if (client.isOpen === false) return notConnected(`not open: ${CONNECT}`);
      return client.isReady === false ? notConnected(undefined) : promised(send(key, args));
    },
  };
}

/** The connection for `client`, or a TypeError naming what is supported. */
export function redisConnection(client: unknown): RedisConnection {
  const shape = (typeof client === 'object' && client !== null ? client : {}) as Record<
    string,
    unknown
  >;
  // ioredis also has a `sendCommand`, taking its own Command objects: look for `call` first.
  if (typeof shape.call === 'function') return ioredis(client as IoRedisClientLike);
  if (typeof shape.sendCommand !== 'function') {
    throw new TypeError(
      `createRedisStore needs ${SUPPORTED}; ${gotInstead(client, 'neither call() nor sendCommand()')}`,
    );
  }
  if (typeof shape.getSlotMaster === 'function') {
    const cluster = client as NodeRedisClusterLike;
    return nodeRedis(cluster, 'createCluster()', 'cluster', (key, args) =>
      cluster.sendCommand(key, false, args),
    );
  }
  if (typeof shape.getMasterNode === 'function') {
    const sentinel = client as NodeRedisSentinelLike;
    // Not read-only: to the primary, never a replica.
    return nodeRedis(sentinel, 'createSentinel()', 'sentinel', (_key, args) =>
      sentinel.sendCommand(false, args),
    );
  }
  // ioredis before 5 has a `status` and a `sendCommand` of its own, but no `call`.
  if (typeof shape.status === 'string') {
    throw new TypeError(`createRedisStore needs ${SUPPORTED}; this ioredis has no call()`);
  }
  const plain = client as NodeRedisClientLike;
  return nodeRedis(plain, 'createClient()', 'single', (_key, args) => plain.sendCommand(args));
}

/**
 * The part of a key Redis Cluster hashes to find its slot: the content of its first `{...}`
 * when that is not empty (a hash tag), else the whole key. Keys with the same part share a slot.
 */
export function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}
