// Connected clients of the Redis packages the store supports, set up as a merchant should:
// an `error` listener (node-redis throws without one when the server goes away) and a short
// reconnect delay, so a restarted server is picked up again within a fraction of a second.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import { createClient as createClient5 } from 'redis5';
import type { RedisClientLike } from '../../../src/server/index.ts';

export const CLIENT_KINDS = ['redis', 'redis5', 'redis4', 'ioredis'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_NAMES: Record<ClientKind, string> = {
  redis: 'node-redis 6',
  redis5: 'node-redis 5',
  redis4: 'node-redis 4',
  ioredis: 'ioredis 6',
};

export interface ConnectedClient {
  client: RedisClientLike;
  /** Any command, for a test's own look at the keys. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 50;

/** What the test needs of a node-redis client, the same in versions 4, 5 and 6. */
interface NodeRedisClient {
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
}

async function connectNodeRedis(
  client: NodeRedisClient,
  onError: (error: Error) => void,
  close: () => Promise<unknown>,
): Promise<ConnectedClient> {
  client.on('error', onError);
  await client.connect();
  return {
    client,
    command: (...args) => client.sendCommand(args),
    close: async () => {
      await close();
    },
  };
}

export async function connectClient(
  kind: ClientKind,
  url: string,
  onError: (error: Error) => void = () => {},
): Promise<ConnectedClient> {
  const socket = { reconnectStrategy: () => RECONNECT_DELAY_MS };
  switch (kind) {
    case 'ioredis': {
      const client = new Redis(url, { retryStrategy: () => RECONNECT_DELAY_MS, lazyConnect: true });
      client.on('error', onError);
      await client.connect();
      return {
        client,
        command: (name, ...args) => client.call(name, ...args),
        close: async () => client.disconnect(),
      };
    }
    case 'redis4': {
      const client = createClient4({ url, socket });
      return connectNodeRedis(client, onError, () => client.disconnect());
    }
    case 'redis5': {
      const client = createClient5({ url, socket });
      return connectNodeRedis(client, onError, async () => client.destroy());
    }
    case 'redis': {
      const client = createClient({ url, socket });
      return connectNodeRedis(client, onError, async () => client.destroy());
    }
  }
}
