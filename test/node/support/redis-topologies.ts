// The Redis topologies a shop outgrows one Redis with, on loopback with real servers: a
// Cluster of three masters, and a primary with a replica watched by three sentinels. Each is
// ready when its start resolves (every slot served; the sentinels know each other and the
// replica), and `stop` ends every process and removes its folders. `redis-cli` (part of
// Debian's redis-server) creates the cluster and asks the nodes how they are.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { scaled, until, within } from '../../shared/until.ts';
import { type RedisGate, startRedisGate } from './redis-gate.ts';
import { freePort, type RedisServer, startRedisServer } from './redis-server.ts';

export interface HostPort {
  host: string;
  port: number;
}

/** How a client reaches a topology: what `connectClient` takes. */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: HostPort[] }
  | { kind: 'sentinel'; name: string; sentinels: HostPort[] };

const CLI = ['/usr/bin/redis-cli', '/usr/local/bin/redis-cli'].find(existsSync) ?? 'redis-cli';
const HOST = '127.0.0.1';

/** Runs `redis-cli -p port ...args` and resolves with what it printed. */
export function cli(port: number, ...args: string[]): Promise<string> {
  return cliWithin(scaled(10_000), port, args);
}

/** `cli`, given `timeoutMs` (an idle machine's, already scaled) before it is killed. */
function cliWithin(timeoutMs: number, port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      CLI,
      ['-h', HOST, '-p', String(port), ...args],
      { timeout: timeoutMs },
      (error, out) => (error ? reject(error) : resolve(out)),
    );
  });
}

/** `field:value` lines (INFO, CLUSTER INFO) or alternating lines (SENTINEL MASTER) as a map. */
function fields(text: string): Map<string, string> {
  const lines = text.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.every((line) => line.includes(':'))) {
    return new Map(lines.map((line) => line.split(':', 2) as [string, string]));
  }
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < lines.length; i += 2) map.set(lines[i]!, lines[i + 1]!);
  return map;
}

async function stopAll(servers: readonly RedisServer[]): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}

export interface RedisCluster {
  target: Extract<RedisTarget, { kind: 'cluster' }>;
  /** The masters, each serving a third of the slots. */
  nodes: RedisServer[];
  stop(): Promise<void>;
}

/** Three masters (`--cluster-enabled yes`), slots spread by `redis-cli --cluster create`. */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const started = await Promise.allSettled(
    Array.from({ length: masters }, () =>
      startRedisServer({
        // The cluster bus port defaults to port + 10 000, which may be taken or past 65 535.
        args: async () => [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-port',
          String(await freePort()),
        ],
      }),
    ),
  );
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    // It waits for the nodes to meet over the cluster bus, checking once a second: a few
    // seconds on an idle machine, and CI saw it pass 10 s on a busy one.
    await cliWithin(scaled(30_000), nodes[0]!.port, [
      '--cluster',
      'create',
      ...nodes.map((n) => `${HOST}:${n.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await until(
      'every cluster node to say cluster_state:ok',
      async () => {
        const states = await Promise.all(nodes.map((n) => cli(n.port, 'CLUSTER', 'INFO')));
        return states.every((info) => fields(info).get('cluster_state') === 'ok');
      },
      20_000,
    );
  } catch (error) {
    await stopAll(nodes);
    throw error;
  }
  return {
    target: { kind: 'cluster', nodes: nodes.map((n) => ({ host: HOST, port: n.port })) },
    nodes,
    stop: () => stopAll(nodes),
  };
}

export interface RedisSentinel {
  target: Extract<RedisTarget, { kind: 'sentinel' }>;
  primary: RedisServer;
  replica: RedisServer;
  sentinels: RedisServer[];
  /** The port of the server the sentinels name as the primary right now. */
  primaryPort(): Promise<number>;
  /**
   * The next failover, watched from before the primary dies: `promoted` resolves with the
   * time the replica took writes as the primary (it logs `MASTER MODE enabled`), `announced`
   * with the time the first sentinel named it to clients (`+switch-master`), which comes up to
   * a second later: only then can a client find the new primary.
   */
  nextFailover(): { promoted: Promise<number>; announced: Promise<number> };
  /**
   * Resolves once the replica has applied everything the primary has taken so far: what a
   * client was told is written may still be on its way (in the primary's buffers, or in the
   * gate's socket, unread by a busy test process).
   */
  replicated(): Promise<void>;
  /** With `gated`: the proxy everyone reaches the primary through (redis-gate.ts). */
  gate?: RedisGate;
  stop(): Promise<void>;
}

/** The name the sentinels monitor the primary by. */
const NAME = 'pw-primary';
/**
 * How long a primary may stay silent before the sentinels call it down: a second on an idle
 * machine, scaled, so that a busy one does not see a primary that is only slow as gone.
 */
export const DOWN_AFTER_MS = scaled(1_000);
/**
 * Sentinel's failover-timeout. Besides bounding a failover in progress, it paces retries: a
 * sentinel whose try failed (a split vote, likelier on a busy machine) tries again only after
 * twice this. Scaled by the load like the deadlines, it was 47 s in a CI run at 4.7x, and the
 * replica was promoted 100 s after the kill, as a second try would be. Five seconds, unscaled: the
 * promotion itself is one command to a local replica, and a failed try then costs 10 s.
 */
const FAILOVER_TIMEOUT_MS = 5_000;

/**
 * A primary, its replica, and three sentinels (quorum 2) watching them. Resolves once every
 * sentinel has found the other two and the replica: sentinels that have not found each other
 * never reach a quorum, and nothing would be promoted. `gated`: the primary is reached
 * through a gate that can hold back its replication stream.
 */
export async function startRedisSentinel(
  options: { gated?: boolean } = {},
): Promise<RedisSentinel> {
  const servers: RedisServer[] = [];
  let gate: RedisGate | undefined;
  // A full sync waits 5 s by default for more replicas to share it: there is one.
  const sync = ['--repl-diskless-sync-delay', '0'];
  try {
    const primary = await startRedisServer({ args: () => sync });
    servers.push(primary);
    if (options.gated) gate = await startRedisGate(primary.port);
    // Where everyone finds the primary.
    const primaryAt = gate?.port ?? primary.port;
    const replica = await startRedisServer({
      args: () => [...sync, '--replicaof', HOST, String(primaryAt)],
    });
    servers.push(replica);
    await until('the replica to sync with the primary', async () => {
      const info = fields(await cli(replica.port, 'INFO', 'replication'));
      return info.get('master_link_status') === 'up';
    });
    const config = [
      `sentinel monitor ${NAME} ${HOST} ${primaryAt} 2`,
      `sentinel down-after-milliseconds ${NAME} ${DOWN_AFTER_MS}`,
      `sentinel failover-timeout ${NAME} ${FAILOVER_TIMEOUT_MS}`,
      `sentinel parallel-syncs ${NAME} 1`,
    ];
    const sentinels = await Promise.all(
      Array.from({ length: 3 }, () => startRedisServer({ sentinel: config })),
    );
    servers.push(...sentinels);
    await until(
      'every sentinel to know the two others and the replica',
      async () => {
        const masters = await Promise.all(
          sentinels.map((s) => cli(s.port, 'SENTINEL', 'MASTER', NAME)),
        );
        return masters.every((text) => {
          const info = fields(text);
          return info.get('num-other-sentinels') === '2' && info.get('num-slaves') === '1';
        });
      },
      30_000,
    );
    return {
      target: {
        kind: 'sentinel',
        name: NAME,
        sentinels: sentinels.map((s) => ({ host: HOST, port: s.port })),
      },
      primary,
      replica,
      sentinels,
      async primaryPort() {
        const answer = await cli(sentinels[0]!.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME);
        return Number(answer.split(/\r?\n/)[1]);
      },
      nextFailover() {
        const at = () => Date.now();
        // Bounded: sentinels that never fail over must fail the test, not hang it.
        const failoverMs = 24_000;
        return {
          promoted: within(
            'the replica to take writes as the primary',
            replica.nextLog(/MASTER MODE enabled/),
            failoverMs,
          ).then(at),
          announced: within(
            'a sentinel to announce the new primary',
            Promise.race(sentinels.map((s) => s.nextLog(/\+switch-master/))),
            failoverMs,
          ).then(at),
        };
      },
      async replicated() {
        const offset = async (port: number, field: string) =>
          Number(fields(await cli(port, 'INFO', 'replication')).get(field));
        const taken = await offset(primary.port, 'master_repl_offset');
        await until(
          `the replica to apply the primary's writes up to offset ${taken}`,
          async () => (await offset(replica.port, 'slave_repl_offset')) >= taken,
        );
      },
      ...(gate === undefined ? {} : { gate }),
      async stop() {
        await gate?.cut();
        await stopAll(servers);
      },
    };
  } catch (error) {
    await gate?.cut();
    await stopAll(servers);
    throw error;
  }
}
