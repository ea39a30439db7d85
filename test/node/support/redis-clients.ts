// Connected clients of the Redis packages the store supports, on each topology, set up as a
// merchant should: an `error` listener (node-redis throws without one when the server goes
// away) and a short reconnect delay, so a restarted server or a promoted replica is picked up
// again within a fraction of a second.
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster, createSentinel } from 'redis';
import { createClient as createClient4, createCluster as createCluster4 } from 'redis4';
import {
  createClient as createClient5,
  createCluster as createCluster5,
  createSentinel as createSentinel5,
} from 'redis5';
import {
  type CompleteStore,
  createRedisStore,
  type RedisClientLike,
  type RedisStoreOptions,
} from '../../../src/server/index.ts';
import { scaled } from '../../shared/until.ts';
import type { RedisTarget } from './redis-topologies.ts';

/**
 * The store as the tests make it: Redis is given an idle machine's 2 s default to answer a
 * command, scaled (a busy machine answers later; a test of what a slow Redis means sets
 * its own `commandTimeoutMs`).
 */
export function testRedisStore(
  client: RedisClientLike,
  options: RedisStoreOptions = {},
): CompleteStore {
  return createRedisStore(client, { commandTimeoutMs: scaled(2_000), ...options });
}

export const CLIENT_KINDS = ['redis', 'redis5', 'redis4', 'ioredis'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_NAMES: Record<ClientKind, string> = {
  redis: 'node-redis 6',
  redis5: 'node-redis 5',
  redis4: 'node-redis 4',
  ioredis: 'ioredis 6',
};

/** The client kinds that can reach a topology: node-redis 4 has no `createSentinel`. */
export function kindsFor(topology: RedisTarget['kind']): ClientKind[] {
  return CLIENT_KINDS.filter((kind) => topology !== 'sentinel' || kind !== 'redis4');
}

export interface ConnectedClient {
  client: RedisClientLike;
  /**
   * Any command, for a test's own look at the keys. On a Cluster it goes to the node that
   * serves its first argument (the key, for the commands the tests send).
   */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 50;

/** What the test needs of a node-redis client, cluster or sentinel, in versions 4, 5 and 6. */
interface NodeRedisConnection {
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
}

async function connectNodeRedis<T extends NodeRedisConnection>(
  client: T,
  onError: (error: Error) => void,
  command: (client: T, args: string[]) => Promise<unknown>,
  close: () => Promise<unknown>,
): Promise<ConnectedClient> {
  client.on('error', onError);
  await client.connect();
  return {
    client: client as unknown as RedisClientLike,
    command: (...args) => command(client, args),
    close: async () => {
      await close();
    },
  };
}

function connectIoRedis(client: Redis | Cluster, onError: (error: Error) => void) {
  client.on('error', onError);
  return client.connect().then(
    (): ConnectedClient => ({
      client,
      command: (name, ...args) => client.call(name, ...args),
      close: async () => client.disconnect(),
    }),
  );
}

/** A node-redis cluster's routing: the key, then whether the command only reads. */
const clusterCommand = (
  client: { sendCommand(key: string | undefined, readonly: boolean, args: string[]): unknown },
  args: string[],
) => client.sendCommand(args[1], false, args) as Promise<unknown>;
const sentinelCommand = (
  client: { sendCommand(readonly: boolean, args: string[]): unknown },
  args: string[],
) => client.sendCommand(false, args) as Promise<unknown>;
const plainCommand = (client: { sendCommand(args: string[]): unknown }, args: string[]) =>
  client.sendCommand(args) as Promise<unknown>;

export function connectClient(
  kind: ClientKind,
  target: string | RedisTarget,
  onError: (error: Error) => void = () => {},
): Promise<ConnectedClient> {
  const to: RedisTarget = typeof target === 'string' ? { kind: 'single', url: target } : target;
  const socket = { reconnectStrategy: () => RECONNECT_DELAY_MS };
  const retryStrategy = () => RECONNECT_DELAY_MS;
  if (kind === 'ioredis') {
    switch (to.kind) {
      case 'single':
        return connectIoRedis(new Redis(to.url, { retryStrategy, lazyConnect: true }), onError);
      case 'cluster':
        return connectIoRedis(
          new Cluster(to.nodes, { lazyConnect: true, clusterRetryStrategy: retryStrategy }),
          onError,
        );
      case 'sentinel':
        return connectIoRedis(
          new Redis({
            sentinels: to.sentinels,
            name: to.name,
            lazyConnect: true,
            retryStrategy,
            sentinelRetryStrategy: retryStrategy,
          }),
          onError,
        );
    }
  }
  switch (to.kind) {
    case 'single': {
      const url = to.url;
      if (kind === 'redis4') {
        const client = createClient4({ url, socket });
        return connectNodeRedis(client, onError, plainCommand, () => client.disconnect());
      }
      const client =
        kind === 'redis5' ? createClient5({ url, socket }) : createClient({ url, socket });
      return connectNodeRedis(client, onError, plainCommand, async () => client.destroy());
    }
    case 'cluster': {
      const options = {
        rootNodes: to.nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })),
        defaults: { socket },
      };
      if (kind === 'redis4') {
        const client = createCluster4(options);
        return connectNodeRedis(client, onError, clusterCommand, () => client.disconnect());
      }
      const client = kind === 'redis5' ? createCluster5(options) : createCluster(options);
      return connectNodeRedis(client, onError, clusterCommand, async () => client.destroy());
    }
    case 'sentinel': {
      if (kind === 'redis4') throw new TypeError('node-redis 4 has no createSentinel');
      const options = {
        name: to.name,
        sentinelRootNodes: to.sentinels,
        nodeClientOptions: { socket },
        sentinelClientOptions: { socket },
      };
      const client = kind === 'redis5' ? createSentinel5(options) : createSentinel(options);
      return connectNodeRedis(client, onError, sentinelCommand, async () => client.destroy());
    }
  }
}
