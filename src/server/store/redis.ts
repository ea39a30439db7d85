/**
 * The payment store on Redis, for several handler instances: one Redis, Redis Cluster, or a
 * primary with replicas under Sentinel (managed services offer each). It takes a client the
 * merchant already has (redis-client.ts says which) and only calls methods on it: this
 * module imports no Redis package, so the server entry loads where none is installed.
 *
 * The key layout (every key starts with `prefix`, default `payment-widget:`):
 *
 * | key | holds |
 * |---|---|
 * | `onPaid:<merchant>:<checkout>`, `onFailed:...` | a claim: `running:<token>` for the lease (`SET NX PX`), then `done:<token>` for `doneTtlMs` |
 * | `claimed:<claim key>` | the latest claim's `running:<token>`, until done or released |
 * | `open:{<merchant>}` | the watched checkouts, a sorted set scored by when each is next due (outcomes/reconcile.ts) |
 * | `sweep:{<merchant>}` | how far reconciliation has read the provider's own list (a record) |
 * | `rate:{<merchant>}:<limit>:<client or checkout>` | a rate counter, gone when its window ends |
 * | the baskets' records | a value changed only by compare-and-set (`read`, `swap`) |
 * | `step:<merchant>:<checkout>` | a checkout's open 3DS or bank step, for minutes (`read`, `write`, `remove`) |
 *
 * The callers choose the names; the store keeps Redis Cluster's one rule for them: every key
 * one script touches hashes to one slot. Each script but the counters' touches one key; the
 * counters of one `hit` go to Redis in one script per hash tag (`{...}`, hashedPart), so the
 * rate limits, which tag theirs with the merchant, cost one round trip. The merchant's open
 * set and its sweep record share that tag too, so they live on one primary and replicate in
 * the order they were written: a sweep record that survived a failover was written after
 * the watched checkouts it counts on, and they survived with it. Claims carry no tag and spread
 * over the Cluster's nodes.
 */

import { positive } from './durations.ts';
import {
  hashedPart,
  type RedisClientLike,
  type RedisConnection,
  redisConnection,
} from './redis-client.ts';
import {
  appendOnlyConfirmer,
  type Command,
  type ReplicaWait,
  replicaConfirmer,
  timedCommands,
} from './redis-commands.ts';
import { type CompleteStore, DONE_TTL_MS } from './types.ts';

export type {
  IoRedisClientLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  NodeRedisSentinelLike,
  RedisClientLike,
} from './redis-client.ts';

export interface RedisStoreOptions {
  /** Put before every key, so one Redis can serve other things. Default `payment-widget:`. */
  prefix?: string;
  /** How long a `done` key is kept: as long as the provider may report a checkout. Default 7 days. */
  doneTtlMs?: number;
  /**
   * How long one command may take before the store gives up on it. A claim that gave up
   * runs no hook (its webhook is answered non-2xx, the provider delivers again); if Redis
   * still carries it out later, the handler's release of that claim, sent behind it and
   * again until Redis answers, frees the key. Default 2 000 ms.
   */
  commandTimeoutMs?: number;
  /**
   * Claims and done marks count only once this many replicas have them (`WAIT`), so that a
   * failover to one of them keeps them: without it, a claim the primary acknowledged but had
   * not passed on yet is lost with the primary, and its hook may run again. A claim that no
   * replica took within `timeoutMs` runs no hook (it is freed, and a later report claims it
   * again); a done mark is retried in the background. So while the replicas are away, hooks
   * wait for them. Not on a Cluster (WAIT names no key to route it by). Default: off.
   */
  waitForReplicas?: ReplicaWait;
}

// KEYS[1] the key, ARGV[1] the holder's token, ARGV[2] the done TTL in ms.
// Done when still held under the token, or free again (a lease that ran out unclaimed):
// the hook has run either way. Another token's claim or done mark stays as it is.
const COMPLETE = `local v = redis.call('GET', KEYS[1])
if v == false or v == 'running:' .. ARGV[1] or v == 'done:' .. ARGV[1] then
  redis.call('SET', KEYS[1], 'done:' .. ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

// KEYS[1] the key, ARGV[1] the holder's token: compare-and-delete.
const RELEASE = `if redis.call('GET', KEYS[1]) == 'running:' .. ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

// KEYS[1] the set, ARGV[1] the checkout id, ARGV[2] its next check (ms), ARGV[3] the set's
// lifetime (ms): a shop that stops reconciling leaves nothing behind for long.
const WATCH = `redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

// KEYS[1] the set, ARGV[1] now, ARGV[2] how many, ARGV[3] now + hold: take the due ids and
// push each past the hold in the same step, so two instances never take the same one.
const DUE = `local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #ids do redis.call('ZADD', KEYS[1], ARGV[3], ids[i]) end
return ids`;

// KEYS the counters, ARGV their windows in ms: one more hit on each in one step. A counter's
// first hit starts its window (PEXPIRE), later ones leave the end where it is, so the key is
// gone when the window ends. A key left without an expiry (PTTL -1) gets one too.
// Fixed windows: an exact count and an exact end (Retry-After), one INCR per counter.
const HIT = `local out = {}
for i = 1, #KEYS do
  local hits = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  out[i] = {hits, ttl}
end
return out`;

// KEYS[1] the record, ARGV[1] '1' when a value is expected (ARGV[2]) or '0' when none is,
// ARGV[3] the new value, ARGV[4] its lifetime in ms: compare-and-set.
const SWAP = `local v = redis.call('GET', KEYS[1])
if (ARGV[1] == '0' and v == false) or (ARGV[1] == '1' and v == ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
  return 1
end
return 0`;

interface Script {
  source: string;
  sha: Promise<string>;
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Indexes of `keys` by the part Redis Cluster hashes: each group can go in one script. */
function bySlot(keys: readonly string[]): number[][] {
  const groups = new Map<string, number[]>();
  for (const [i, key] of keys.entries()) {
    const part = hashedPart(key);
    const group = groups.get(part) ?? [];
    group.push(i);
    groups.set(part, group);
  }
  return [...groups.values()];
}

/**
 * A new claim's record, `full`, set to its `running:<token>` for `doneTtl` ms: `taken-over`
 * when it held another claim's, whose lease ran out undone. Apart from the claim (another
 * slot on a Cluster), it only tells: a claim stands without it, which a failure may leave
 * unwritten or stale (and Redis before 6.2, without SET's GET, never writes).
 */
async function tookOver(
  command: Command,
  full: string,
  token: string,
  doneTtl: string,
): Promise<'claimed' | 'taken-over'> {
  const held = `running:${token}`;
  const was = await command(full, ['SET', full, held, 'PX', doneTtl, 'GET']).catch(() => held);
  return typeof was === 'string' && was !== held ? 'taken-over' : 'claimed';
}

/**
 * A `PaymentStore` on Redis: `createPaymentHandler({ store: createRedisStore(client) })` on
 * every instance. `client` is the caller's, connecting or connected (`createClient({ url })`
 * or `createCluster({ rootNodes })` whose `connect()` was called, awaited or not: until it is
 * ready the store fails its commands at once; `new Redis(url)`, `new Redis.Cluster(nodes)`
 * ...). The caller also owns its reconnects, its `error` listener and closing it. Any other
 * client is refused here, with a message naming what is supported.
 */
export function createRedisStore(
  client: RedisClientLike,
  options: RedisStoreOptions = {},
): CompleteStore {
  const connection: RedisConnection = redisConnection(client);
  const prefix = options.prefix ?? 'payment-widget:';
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  const doneTtl = String(positive('doneTtlMs', options.doneTtlMs ?? DONE_TTL_MS));
  const timeoutMs = positive('commandTimeoutMs', options.commandTimeoutMs ?? 2_000);
  const command = timedCommands(connection, timeoutMs);
  const replicas = replicaConfirmer(options.waitForReplicas, connection, command, timeoutMs);

  const script = (source: string): Script => ({ source, sha: sha1(source) });
  const complete = script(COMPLETE);
  const release = script(RELEASE);
  const watch = script(WATCH);
  const due = script(DUE);
  const hit = script(HIT);
  const swap = script(SWAP);

  /**
   * EVALSHA, falling back to EVAL (which caches it again) after Redis forgot the script. Both
   * go to the node serving the keys' slot, so on a Cluster the node that had not seen the
   * script yet (or restarted) is the one that gets it.
   */
  async function runOn(which: Script, keys: string[], args: string[]): Promise<unknown> {
    const rest = [String(keys.length), ...keys, ...args];
    const key = keys[0]!;
    try {
      return await command(key, ['EVALSHA', await which.sha, ...rest]);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes('NOSCRIPT'))) throw error;
      return command(key, ['EVAL', which.source, ...rest]);
    }
  }
  const run = (which: Script, key: string, args: string[]) => runOn(which, [key], args);

  const inAppendOnlyFile = appendOnlyConfirmer(connection, command, timeoutMs);

  // The claims' records (tookOver), forgotten by RELEASE once done or released.
  const record = (key: string) => `${prefix}claimed:${key}`;
  const forgetClaim = (key: string, token: string) =>
    run(release, record(key), [token]).catch(() => undefined);

  return {
    async claim(key, token, leaseMs) {
      const full = prefix + key;
      const lease = String(positive('leaseMs', leaseMs));
      // A key that expires or is released between SET and GET is free again: try once more.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const set = await command(full, ['SET', full, `running:${token}`, 'NX', 'PX', lease]);
        if (set === 'OK') {
          const { ok, acks } = await replicas.reached(full);
          if (ok) return tookOver(command, record(key), token, doneTtl);
          // Not held where a failover would keep it: no hook runs on it, and a later report
          // may claim it at once.
          await run(release, full, [token]).catch(() => undefined);
          throw replicas.tooFew('claim', acks);
        }
        const value = await command(full, ['GET', full]);
        if (typeof value === 'string') return value.startsWith('done:') ? 'done' : 'running';
      }
      return 'running';
    },
    async complete(key, token) {
      const full = prefix + key;
      if (Number(await run(complete, full, [token, doneTtl])) !== 1) return false;
      // Durable before it counts: a Redis killed within appendfsync everysec's second would
      // forget a mark it acknowledged. Rejecting keeps the reporter writing it again.
      await inAppendOnlyFile(full);
      const { ok, acks } = await replicas.reached(full);
      // The reporter tries again in the background; the key stays this token's meanwhile.
      if (!ok) throw replicas.tooFew('done mark', acks);
      // Not awaited: a record left behind only costs its memory until it expires.
      void forgetClaim(key, token);
      return true;
    },
    async release(key, token) {
      // The record first, while the claim holds its key: a claim made between the two would
      // read this one's record as a lease that ran out (another instance's webhook).
      const forgot = await run(release, record(key), [token]).then(Number, () => 0);
      if (Number(await run(release, prefix + key, [token])) === 1) return true;
      // Its lease ran out (the key is gone) with nobody claiming it since: the record, gone
      // now, was what still named this token.
      if (Number(await command(prefix + key, ['EXISTS', prefix + key])) !== 0) return false;
      return forgot === 1;
    },
    async leaseLeft(key) {
      const full = prefix + key;
      const ms = Number(await command(full, ['PTTL', full]));
      return ms > 0 ? ms : undefined;
    },
    async watch(set, id, checkAt) {
      await run(watch, prefix + set, [id, String(Math.floor(checkAt)), doneTtl]);
    },
    async due(set, now, limit, holdMs) {
      const ids = await run(due, prefix + set, [
        String(Math.floor(now)),
        String(Math.max(1, Math.floor(limit))),
        String(Math.floor(now + holdMs)),
      ]);
      return Array.isArray(ids) ? ids.map(String) : [];
    },
    async unwatch(set, id) {
      const full = prefix + set;
      await command(full, ['ZREM', full, id]);
    },
    async hit(counters) {
      const keys = counters.map((c) => prefix + c.key);
      const windows = counters.map((c) => String(positive('windowMs', c.windowMs)));
      const states: unknown[] = new Array(counters.length);
      // One script per slot: counters with different hash tags may live on different nodes.
      await Promise.all(
        bySlot(keys).map(async (group) => {
          const answer = await runOn(
            hit,
            group.map((i) => keys[i]!),
            group.map((i) => windows[i]!),
          );
          if (!Array.isArray(answer) || answer.length !== group.length) {
            throw new Error('Redis answered the rate counters with something else');
          }
          for (const [j, i] of group.entries()) states[i] = answer[j];
        }),
      );
      return states.map((state) => {
        const [hits, ttl] = Array.isArray(state) ? state : [];
        return { hits: Number(hits), resetInMs: Number(ttl) };
      });
    },
    async read(key) {
      const full = prefix + key;
      const value = await command(full, ['GET', full]);
      return typeof value === 'string' ? value : undefined;
    },
    async swap(key, expected, value, ttlMs) {
      const args = expected === undefined ? ['0', '', value] : ['1', expected, value];
      const lifetime = String(positive('ttlMs', ttlMs));
      return Number(await run(swap, prefix + key, [...args, lifetime])) === 1;
    },
    async write(key, value, ttlMs) {
      const full = prefix + key;
      await command(full, ['SET', full, value, 'PX', String(positive('ttlMs', ttlMs))]);
    },
    async remove(key) {
      const full = prefix + key;
      await command(full, ['DEL', full]);
    },
  };
}
