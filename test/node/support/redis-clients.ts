// Connected clients of the Redis packages the store supports, set up as a merchant should:
// an `error` listener (node-redis throws without one when the server goes away) and a short
// reconnect delay, so a restarted server is picked up again within a fraction of a second.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import type { RedisClientLike } from '../../../src/server/index.ts';

export const CLIENT_KINDS = ['redis', 'redis4', 'ioredis'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_NAMES: Record<ClientKind, string> = {
  redis: 'node-redis 6',
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

export async function connectClient(
  kind: ClientKind,
  url: string,
  onError: (error: Error) => void = () => {},
): Promise<ConnectedClient> {
  if (kind === 'ioredis') {
    const client = new Redis(url, { retryStrategy: () => RECONNECT_DELAY_MS, lazyConnect: true });
    client.on('error', onError);
    await client.connect();
    return {
      client,
      command: (name, ...args) => client.call(name, ...args),
      close: async () => client.disconnect(),
    };
  }
  if (kind === 'redis4') {
    const client = createClient4({ url, socket: { reconnectStrategy: () => RECONNECT_DELAY_MS } });
    client.on('error', onError);
    await client.connect();
    return {
      client,
      command: (...args) => client.sendCommand(args),
      close: () => client.disconnect(),
    };
  }
  const client = createClient({ url, socket: { reconnectStrategy: () => RECONNECT_DELAY_MS } });
  client.on('error', onError);
  await client.connect();
  return {
    client,
    command: (...args) => client.sendCommand(args),
    close: async () => client.destroy(),
  };
}
