// A throwaway redis-server per test: on a free loopback port, no persistence unless asked
// (then an append-only file in a fresh temporary folder), stopped by the test's `after`.
// Needs Debian's `redis-server` (`.ci/run` installs it when missing).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, killAtExit } from './children.ts';
import { listenLoopback } from './loopback.ts';

export interface RedisServerOptions {
  /**
   * Keep the data across a kill and restart in an append-only file (fsynced every second,
   * which a killed process loses nothing of), as a Redis that holds claims should.
   */
  persistent?: boolean;
}

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:{port}` */
  url: string;
  /** SIGKILL, as a crash or an OOM kill would; resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (and data folder); resolves once it takes connections. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data folder. */
  stop(): Promise<void>;
}

const BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync);
const READY_TIMEOUT_MS = 10_000;

async function freePort(): Promise<number> {
  const { port, close } = await listenLoopback(createServer());
  await close();
  return port;
}

/** Spawns redis-server; resolves when it logs that it takes connections. */
function launch(port: number, dir: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', ''];
  args.push(
    ...(dir === undefined
      ? ['--appendonly', 'no']
      : ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir]),
  );
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
      if (output.includes('Ready to accept connections')) {
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
  const dir = options.persistent ? mkdtempSync(join(tmpdir(), 'pw-redis-')) : undefined;
  let child: ChildProcess | undefined;
  let port = 0;
  // Another process may take the port between our probe and redis-server's bind: try anew.
  for (let attempt = 1; child === undefined; attempt += 1) {
    port = await freePort();
    try {
      child = await launch(port, dir);
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('Address already in use')) throw error;
    }
  }
  let current: ChildProcess = child;
  const kill = async () => {
    current.kill('SIGKILL');
    await exited(current);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    async restart() {
      await kill();
      current = await launch(port, dir);
    },
    async stop() {
      await kill();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
