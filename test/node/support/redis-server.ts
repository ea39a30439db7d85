// A throwaway redis-server per test: on a free loopback port, in a fresh temporary folder
// (removed when the test's process is gone, if `stop` did not), no persistence unless asked (then an append-only file), stopped by the test's `after`.
// Also the nodes of the Cluster and Sentinel topologies (redis-topologies.ts): extra
// arguments, or sentinel mode with a config file. Needs Debian's `redis-server` (`.ci/run`
// installs it when missing), which brings `redis-cli` and sentinel mode with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { scaled } from '../../shared/until.ts';
import { exited, killAtExit, temporaryFolder } from './children.ts';
import { listenLoopback } from './loopback.ts';

export interface RedisServerOptions {
  /**
   * Keep the data across a kill and restart in an append-only file, as a Redis that holds
   * claims should: fsynced every second (a SIGKILL loses what the kernel had not written
   * yet, and a crash of the machine the last second), or with `'always'` before each write
   * is acknowledged (what Redis 7.2's WAITAOF, which the store asks for, gives with
   * `everysec`: nothing acknowledged is lost).
   */
  persistent?: boolean | 'always';
  /** More arguments, given the port it listens on (cluster mode, `--replicaof`). */
  args?: (port: number) => string[] | Promise<string[]>;
  /**
   * Runs it as a sentinel with these config lines (`sentinel monitor ...`): sentinel mode
   * needs a config file of its own, which it rewrites as it learns the topology.
   */
  sentinel?: string[];
}

export interface RedisServer {
  port: number;
  /** Its temporary folder: data, cluster and sentinel config files. */
  dir: string;
  /** `redis://127.0.0.1:{port}` */
  url: string;
  /** SIGKILL, as a crash or an OOM kill would; resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (and data folder); resolves once it takes connections. */
  restart(): Promise<void>;
  /**
   * Stops it answering with its connections left open (SIGSTOP), as a hung machine or a lost
   * network would; `thaw()` lets it go on.
   */
  freeze(): void;
  thaw(): void;
  /** Stops it for good and removes its data folder. */
  stop(): Promise<void>;
  /** Resolves when it next logs a line matching `pattern` (ask before it may happen). */
  nextLog(pattern: RegExp): Promise<void>;
}

const BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync);
const READY_TIMEOUT_MS = scaled(10_000);

/** A loopback port nothing listens on right now (another process may take it meanwhile). */
export async function freePort(): Promise<number> {
  const { port, close } = await listenLoopback(createServer());
  await close();
  return port;
}

interface Launch {
  port: number;
  dir: string;
  persistent: boolean | 'always';
  extra: string[];
  /** The sentinel config file, when it runs as one. */
  sentinelConfig: string | undefined;
}

/** Spawns redis-server; resolves when it logs that it takes connections. */
function launch({ port, dir, persistent, extra, sentinelConfig }: Launch): Promise<ChildProcess> {
  const args = sentinelConfig === undefined ? [] : [sentinelConfig, '--sentinel'];
  args.push('--port', String(port), '--bind', '127.0.0.1', '--dir', dir);
  if (sentinelConfig === undefined) {
    args.push('--save', '');
    args.push(
      ...(persistent
        ? ['--appendonly', 'yes', '--appendfsync', persistent === 'always' ? 'always' : 'everysec']
        : ['--appendonly', 'no']),
    );
  }
  args.push(...extra);
  // A sentinel logs its id once it monitors; a server, that it takes connections.
  const ready = sentinelConfig === undefined ? 'Ready to accept connections' : 'Sentinel ID is';
  const child = spawn(BINARY ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  killAtExit(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`redis-server on ${port} not ready after ${READY_TIMEOUT_MS} ms:\n${output}`),
      );
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining its log so a full pipe never blocks it.
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `redis-server could not start (${error.message}): apt-get install redis-server (.ci/run does)`,
        ),
      );
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on ${port} exited (${code ?? signal}):\n${output}`));
    });
  });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const folder = temporaryFolder('pw-redis-');
  const { dir } = folder;
  const persistent = options.persistent ?? false;
  let child: ChildProcess | undefined;
  let port = 0;
  let extra: string[] = [];
  let sentinelConfig: string | undefined;
  // Another process may take the port between our probe and redis-server's bind: try anew.
  for (let attempt = 1; child === undefined; attempt += 1) {
    port = await freePort();
    extra = (await options.args?.(port)) ?? [];
    if (options.sentinel !== undefined) {
      sentinelConfig = join(dir, `sentinel-${port}.conf`);
      writeFileSync(sentinelConfig, `${options.sentinel.join('\n')}\n`);
    }
    try {
      child = await launch({ port, dir, persistent, extra, sentinelConfig });
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('Address already in use')) {
        folder.remove();
        throw error;
      }
    }
  }
  const waiters = new Set<{ pattern: RegExp; resolve: () => void }>();
  /** Reads its log line by line for `nextLog`. */
  const watch = (process: ChildProcess) => {
    let partial = '';
    process.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        for (const waiter of waiters) {
          if (!waiter.pattern.test(line)) continue;
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    });
  };
  watch(child);
  let current: ChildProcess = child;
  const kill = async () => {
    current.kill('SIGKILL');
    await exited(current);
  };
  return {
    port,
    dir,
    url: `redis://127.0.0.1:${port}`,
    kill,
    freeze: () => current.kill('SIGSTOP'),
    thaw: () => current.kill('SIGCONT'),
    async restart() {
      await kill();
      current = await launch({ port, dir, persistent, extra, sentinelConfig });
      watch(current);
    },
    async stop() {
      await kill();
      folder.remove();
    },
    nextLog(pattern) {
      return new Promise((resolve) => waiters.add({ pattern, resolve }));
    },
  };
}
