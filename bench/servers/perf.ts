// With BENCH_PERF=dir, Linux `perf` samples a bench server's CPU, kernel included, while
// it is measured: `perf report -i dir/<server>.data --sort dso` splits its time between
// the kernel and Node, `--children --sort sym` shows what the socket sends cost. A V8 CPU
// profile (BENCH_CPU_PROF) cannot: it samples by wall clock and sees no kernel frames, so a
// process preempted inside a system call looks busy there.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The directory perf data goes to, or undefined when BENCH_PERF is not set. */
export function perfDir(): string | undefined {
  const dir = process.env.BENCH_PERF;
  return dir === undefined || dir === '' ? undefined : dir;
}

/**
 * Node flags that let perf name JIT-compiled JavaScript frames (it reads /tmp/perf-<pid>.map).
 * They also make V8 write a log per isolate: into `dir`, not the working directory.
 */
export function perfNodeFlags(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return [
    '--perf-basic-prof',
    '--interpreted-frames-native-stack',
    `--logfile=${join(dir, 'v8-%p.log')}`,
  ];
}

/**
 * Starts `perf record` on `pid` into `dir/name.data`; the returned function stops it and
 * resolves once the file is written. Throws a clear error where perf is missing.
 */
export async function recordPerf(
  dir: string,
  name: string,
  pid: number | undefined,
): Promise<() => Promise<void>> {
  if (pid === undefined) throw new Error(`${name} has no process id to record`);
  mkdirSync(dir, { recursive: true });
  const perf: ChildProcess = spawn(
    'perf',
    [
      'record',
      '-e',
      'cpu-clock',
      '-F',
      '999',
      '-g',
      '-p',
      String(pid),
      '-o',
      join(dir, `${name}.data`),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  perf.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    perf.once('spawn', resolve);
    perf.once('error', (error) =>
      reject(new Error(`BENCH_PERF needs Linux perf on the PATH: ${error.message}`)),
    );
  });
  return async () => {
    perf.kill('SIGINT');
    await exited;
    if (perf.exitCode !== 0 && perf.signalCode === null) {
      throw new Error(`perf record for ${name} failed:\n${stderr.slice(-1000)}`);
    }
  };
}
