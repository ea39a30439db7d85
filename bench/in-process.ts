// Servers called in process, a Web Request in and a Response out, in child processes that
// answer `run N` with the CPU and wall time per request (./servers/handler-loop.ts,
// ./servers/sandbox-loop.ts). One child is busy at a time and no socket is involved, so what
// is compared is each one's own work. The machine's speed still shifts in phases of seconds;
// with short turns both sides of a round mostly fall in one phase, so the ratio taken per
// round holds where the loopback rounds of ./throughput.ts swing.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Child, startTsChild } from './servers/spawn.ts';

/** One variant's in-process rounds: CPU and wall time per request, µs. */
export interface InProcessRun {
  name: string;
  cpuUs: number[];
  wallUs: number[];
}

const BENCH = dirname(fileURLToPath(import.meta.url));

/** Sends `run N` to an in-process child and waits for its answer line. */
export function runIn(
  child: Child<unknown>,
  requests: number,
): Promise<{ cpuUs: number; wallUs: number }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onExit = (code: number | null) =>
      reject(new Error(`an in-process child exited with ${code}`));
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n').find((l) => l.startsWith('{"cpuUs"'));
      if (line === undefined) return;
      child.process.stdout?.off('data', onData);
      child.process.off('exit', onExit);
      resolve(JSON.parse(line) as { cpuUs: number; wallUs: number });
    };
    child.process.stdout?.on('data', onData);
    child.process.once('exit', onExit);
    child.process.stdin?.write(`run ${requests}\n`);
  });
}

/** One uncounted run each (JIT), then `rounds` rounds in which each child takes its turn. */
export async function loopsInTurns(
  named: { name: string; child: Child<unknown> }[],
  rounds: number,
  requests: number,
): Promise<InProcessRun[]> {
  const runs: InProcessRun[] = named.map(({ name }) => ({ name, cpuUs: [], wallUs: [] }));
  for (const { child } of named) await runIn(child, requests);
  for (let round = 0; round < rounds; round += 1) {
    for (const [k, { child }] of named.entries()) {
      const result = await runIn(child, requests);
      runs[k]!.cpuUs.push(result.cpuUs);
      runs[k]!.wallUs.push(result.wallUs);
    }
  }
  return runs;
}

export interface BaselineLoops {
  /** This sandbox, the baseline's, this handler, the baseline's. */
  runs: [InProcessRun, InProcessRun, InProcessRun, InProcessRun];
  /** Per round, CPU per request: this one / the baseline's, for the sandbox and the handler. */
  sandboxCpu: number[];
  handlerCpu: number[];
  requests: number;
}

/**
 * This checkout's sandbox and handler against `baseline`'s (another checkout of this
 * repository with its dependencies installed), each called in process.
 */
export async function measureBaselineLoops(
  baseline: string,
  rounds: number,
  requests: number,
): Promise<BaselineLoops> {
  const other = resolve(baseline);
  const children: Child<unknown>[] = [];
  const start = async (file: string, env: Record<string, string> = {}) => {
    const child = await startTsChild<unknown>(file, env);
    children.push(child);
    return child;
  };
  try {
    const named = [
      {
        name: 'sandbox GET /v0.1/checkouts/{id}',
        child: await start(join(BENCH, 'servers/sandbox-loop.ts')),
      },
      {
        name: 'baseline sandbox',
        child: await start(join(BENCH, 'servers/sandbox-loop.ts'), {
          BENCH_SANDBOX_SOURCE: join(other, 'src/sandbox/index.ts'),
        }),
      },
      {
        name: 'handler GET /payments/checkouts/:id',
        child: await start(join(BENCH, 'servers/handler-loop.ts')),
      },
      {
        name: 'baseline handler',
        child: await start(join(other, 'bench/servers/handler-loop.ts')),
      },
    ];
    const runs = (await loopsInTurns(named, rounds, requests)) as BaselineLoops['runs'];
    const ratio = (a: InProcessRun, b: InProcessRun) =>
      a.cpuUs.map((us, i) => us / (b.cpuUs[i] ?? Number.NaN));
    return {
      runs,
      sandboxCpu: ratio(runs[0], runs[1]),
      handlerCpu: ratio(runs[2], runs[3]),
      requests,
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}
