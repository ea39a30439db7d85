// Starts a bench server in a child process and waits for its first line (a JSON
// description, or a readiness line for Prism). The child is killed on stop(), on
// a start timeout, and (through its stdin pipe) whenever this process dies.
import { type ChildProcess, spawn } from 'node:child_process';
import { basename, join } from 'node:path';
import { perfDir, perfNodeFlags } from './perf.ts';

export interface Child<T> {
  info: T;
  process: ChildProcess;
  stop(): Promise<void>;
}

// Children still running when the bench exits (an error, Ctrl-C) are killed with
// it: Prism does not watch its stdin, so a closed pipe alone would orphan it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

export function startChild<T>(
  command: string,
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    /** Turns a line of output into the info, or undefined to keep waiting. */
    ready(line: string): T | undefined;
    timeoutMs?: number;
  },
): Promise<Child<T>> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      // Our own servers exit when their stdin closes (and only then write a CPU profile);
      // Prism ignores stdin and needs the signal.
      const term = setTimeout(() => child.kill('SIGTERM'), 1_000);
      const kill = setTimeout(() => child.kill('SIGKILL'), 4_000);
      child.once('exit', () => {
        clearTimeout(term);
        clearTimeout(kill);
        resolve();
      });
      child.stdin?.end();
    });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} did not start in time:\n${output.slice(-2000)}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      for (const line of output.split('\n')) {
        const info = options.ready(line.trim());
        if (info !== undefined) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          child.stderr?.resume();
          resolve({ info, process: child, stop });
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

/** A JSON line from one of ./sandbox.ts or ./handler.ts. */
export function jsonLine<T>(line: string): T | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}

/**
 * Runs a TypeScript bench server with the same Node and the tsx loader. With
 * BENCH_CPU_PROF=dir each server writes a V8 CPU profile there when it stops
 * (a folder per server; the main thread's is the largest file) to see where its time goes;
 * with BENCH_PERF=dir it names its JIT frames for Linux perf (./perf.ts).
 */
export function startTsChild<T>(file: string, env: Record<string, string> = {}): Promise<Child<T>> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const profile =
    profileDir === undefined || profileDir === ''
      ? []
      : // One folder per server: the tsx loader's worker thread writes a profile too.
        ['--cpu-prof', '--cpu-prof-dir', join(profileDir, basename(file, '.ts'))];
  const perfTo = perfDir();
  const perf = perfTo === undefined ? [] : perfNodeFlags(perfTo);
  return startChild<T>(process.execPath, [...profile, ...perf, '--import', 'tsx', file], {
    env,
    ready: jsonLine<T>,
  });
}
