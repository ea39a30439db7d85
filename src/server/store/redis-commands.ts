/**
 * How the Redis store's commands reach Redis and when a write counts as kept there: each
 * command with its timeout (and, after one went unanswered, the quiet of ./unanswered.ts), and
 * the confirmations a claim or done mark waits for: WAITAOF for the primary's append-only
 * file, WAIT for the replicas an operator asked for (`waitForReplicas`).
 */
import { positive } from './durations.ts';
import type { RedisConnection } from './redis-client.ts';
import { unanswered } from './unanswered.ts';

/** One command, sent to the node serving `key`. */
export type Command = (key: string, args: string[]) => Promise<unknown>;

/** `waitForReplicas`: how many replicas must have a write, and how long to wait for them. */
export interface ReplicaWait {
  replicas: number;
  timeoutMs: number;
}

/** What WAIT gives a write: whether enough replicas have it, and the error when too few do. */
export interface ReplicaConfirmer {
  /** Whether the writes sent so far on the key's connection reached enough replicas. */
  reached(key: string): Promise<{ ok: boolean; acks: number }>;
  tooFew(what: string, acks: number): Error;
}

/**
 * Sends one command to the node serving `key`; rejects when it has no answer in time, and (one
 * Redis, or a primary under Sentinel) the next at once until Redis answers again
 * (./unanswered.ts).
 */
export function timedCommands(connection: RedisConnection, timeoutMs: number): Command {
  // Not on a Cluster: there one node that stops answering must not fail the commands the
  // others would answer (the claims spread over every node), so each waits its own timeout.
  const silence = connection.topology === 'cluster' ? undefined : unanswered('Redis', timeoutMs);
  return function command(key, args) {
    let sent: Promise<unknown>;
    try {
      silence?.check(String(args[0]));
      sent = connection.send(key, args);
    } catch (error) {
      // A client that throws instead of rejecting: a failed command like any other.
      return Promise.reject(error);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        silence?.timedOut(() => connection.send(key, ['EXISTS', key]));
        reject(new Error(`Redis did not answer ${args[0]} within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    return Promise.race([sent, timeout]).finally(() => clearTimeout(timer));
  };
}

/**
 * WAITAOF (Redis 7.2 and later, with its append-only file on): whether the write just made on
 * this connection is in the primary's AOF, fsynced. A Redis without it (older, or AOF off) is
 * asked once and then not again; on a Cluster it is not asked (it names no key to route it by).
 */
export function appendOnlyConfirmer(
  connection: RedisConnection,
  command: Command,
  timeoutMs: number,
): (key: string) => Promise<void> {
  let aof: 'unknown' | 'yes' | 'no' = connection.topology === 'cluster' ? 'no' : 'unknown';
  const aofWaitMs = Math.max(1, Math.min(1_000, Math.floor(timeoutMs / 2)));
  return async function inAppendOnlyFile(key) {
    if (aof === 'no') return;
    let answer: unknown;
    try {
      answer = await command(key, ['WAITAOF', '1', '0', String(aofWaitMs)]);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      // Not `aof === 'unknown'`: calls sent together before the first answer all meet the
      // same refusal, and each must take it as the first did.
      if (aof !== 'yes' && /unknown command|appendonly/i.test(text)) {
        aof = 'no';
        return;
      }
      throw error;
    }
    aof = 'yes';
    const local = Array.isArray(answer) ? Number(answer[0]) : 0;
    if (local < 1) {
      throw new Error(
        `Redis did not confirm the done mark in its append-only file within ${aofWaitMs} ms`,
      );
    }
  };
}

function replicasToWaitFor(
  wait: ReplicaWait | undefined,
  connection: RedisConnection,
  commandTimeoutMs: number,
): ReplicaWait | undefined {
  if (wait === undefined) return undefined;
  if (typeof wait !== 'object' || wait === null) {
    throw new TypeError('waitForReplicas must be { replicas, timeoutMs }');
  }
  if (connection.topology === 'cluster') {
    throw new TypeError(
      `waitForReplicas is not supported on a Cluster (${connection.made}): WAIT names no key to route it by`,
    );
  }
  if (!Number.isInteger(wait.replicas) || wait.replicas < 1) {
    throw new TypeError('waitForReplicas.replicas must be a whole number, 1 or more');
  }
  const timeoutMs = positive('waitForReplicas.timeoutMs', wait.timeoutMs);
  if (timeoutMs >= commandTimeoutMs) {
    throw new TypeError('waitForReplicas.timeoutMs must be shorter than commandTimeoutMs');
  }
  return { replicas: wait.replicas, timeoutMs };
}

/**
 * WAIT, as `waitForReplicas` asks (checked here, so a store with a wrong one is refused when it
 * is made). It covers the write just made because the client sends its commands in order on
 * one connection to the primary.
 */
export function replicaConfirmer(
  wait: ReplicaWait | undefined,
  connection: RedisConnection,
  command: Command,
  commandTimeoutMs: number,
): ReplicaConfirmer {
  const replicated = replicasToWaitFor(wait, connection, commandTimeoutMs);
  return {
    async reached(key) {
      if (replicated === undefined) return { ok: true, acks: 0 };
      const { replicas, timeoutMs: waitMs } = replicated;
      const acks = Number(await command(key, ['WAIT', String(replicas), String(waitMs)]));
      return { ok: acks >= replicas, acks };
    },
    tooFew: (what, acks) =>
      new Error(
        `Redis: the ${what} reached ${acks} of ${replicated?.replicas} replicas within ${replicated?.timeoutMs} ms`,
      ),
  };
}
