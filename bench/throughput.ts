// Requests per second of one GET, side by side in one run: a bare node:http JSON server
// (the floor), the sandbox's `GET /v0.1/checkouts/{id}`, a bare proxy that passes that GET
// through to the sandbox and does nothing else (the floor for any server in front of the
// sandbox), and the companion handler's `GET /payments/checkouts/:id`, which reads that same
// checkout from the same sandbox; and between the last two, the bare proxy's work behind the
// handler's edge (toNodeListener and one Hono route, ./servers/hono-proxy.ts), which splits the
// handler's cost beyond the bare proxy into the edge's and the handler's own.
// autocannon drives each at a fixed number of keep-alive connections on 127.0.0.1; each
// server runs in its own process. Targets take turns (A B C A B C ...) so that a change of
// the machine's load during the run hits all of them alike, and the ratios are taken per
// round, then their median and spread reported.
// With BENCH_PIN=1 the servers run on the first CPU and autocannon (this process) on the second
// (taskset), so the load generator takes nothing from the servers it measures: each target's
// requests per second is then what one core does for its server and the sandbox together.
// With BENCH_BASELINE=/path/to/another/checkout, that checkout's sandbox runs as one more target
// (same GET, same turns), to compare a change of the sandbox with what it was before; and that
// checkout's handler (its own bench/servers/handler.ts) runs in front of this sandbox, beside
// this handler, to compare a change of the handler with the bare proxy as both stand.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxInfo } from './http.ts';
import { perfDir, recordPerf } from './servers/perf.ts';
import { type Child, startTsChild } from './servers/spawn.ts';

const BENCH = dirname(fileURLToPath(import.meta.url));

/** The part of autocannon's result this bench reads. */
interface CannonResult {
  /** Seconds. */
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}

interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}

export type Cannon = (options: CannonOptions) => Promise<CannonResult>;

/** autocannon is a bench-only dependency (bench/package.json), so it is loaded from there. */
export function loadCannon(): Cannon {
  const require = createRequire(join(BENCH, 'package.json'));
  // autocannon ships no types; CannonOptions/CannonResult above name what is used.
  return require('autocannon') as Cannon;
}

export interface ThroughputShape {
  connections: number;
  /** Seconds per target per round. */
  seconds: number;
  rounds: number;
  /** Seconds of uncounted warm-up per target (JIT, keep-alive sockets, the handler's pool). */
  warmSeconds: number;
  /** Another checkout of this repository whose sandbox runs beside this one. */
  baseline?: string;
}

export interface TargetRun {
  name: string;
  /** req/s of each round. */
  rates: number[];
  /**
   * CPU time (user + system) of the server processes a request passes through, in µs per
   * request, per round: less sensitive than req/s to what else the machine runs.
   */
  cpuPerRequest: number[];
  /** The same for the target's own process alone (the server in front of the sandbox), per round. */
  ownCpuPerRequest: number[];
  p50: number[];
  p99: number[];
  /** Non-2xx answers, socket errors and timeouts over all rounds: any of them voids the run. */
  bad: number;
}

export interface ThroughputReport {
  targets: TargetRun[];
  /** Per round: sandbox / bare, handler / sandbox, bare proxy / sandbox, handler / bare proxy. */
  sandboxRatio: number[];
  handlerRatio: number[];
  proxyRatio: number[];
  handlerToProxyRatio: number[];
  /**
   * Per round, handler / bare proxy by CPU time per request, the inverse ratio of what each costs:
   * with the sandbox (what a core serving both would do) and the front process alone.
   */
  handlerToProxyCpuRatio: number[];
  handlerToProxyOwnCpuRatio: number[];
  /** Per round: the proxy behind the handler's edge / the bare proxy, the handler / that proxy. */
  edgeToProxyRatio: number[];
  handlerToEdgeRatio: number[];
  /** Per round: this sandbox / the baseline checkout's, when one was given. */
  baselineRatio?: number[];
  /** Per round: the baseline checkout's handler / the bare proxy, when one was given. */
  baselineHandlerToProxyRatio?: number[];
  loadBefore: number[];
  loadAfter: number[];
  /** Whether BENCH_PIN put the servers and autocannon on CPUs of their own. */
  pinned: boolean;
}

/** CPU seconds (user + system) a process has used so far, from Linux's /proc; NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export async function createCheckout(sandbox: SandboxInfo): Promise<string> {
  const res = await fetch(`${sandbox.url}/v0.1/checkouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      checkout_reference: `bench-throughput-${Date.now()}`,
      amount: 10,
      currency: 'EUR',
      merchant_code: sandbox.merchantCode,
      description: 'bench',
    }),
  });
  const body = (await res.json()) as { id?: unknown };
  if (res.status !== 201 || typeof body.id !== 'string') {
    throw new Error(`could not create the bench checkout: HTTP ${res.status}`);
  }
  return body.id;
}

/** One server under load: what autocannon asks, and the processes each request passes through. */
export interface Target {
  name: string;
  options: Omit<CannonOptions, 'duration' | 'connections'>;
  /** Whose CPU time counts as the request's: the target's own process first. */
  pids: (number | undefined)[];
}

/**
 * BENCH_PIN=1: `servers` on the first CPU, this process (autocannon) on the second, all threads
 * of each (taskset, Linux). Off by default; an error where it cannot be done.
 */
function pinIfAsked(servers: (number | undefined)[]): boolean {
  if (process.env.BENCH_PIN !== '1') return false;
  const pin = (cpu: string, pid: number | undefined) =>
    execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
  for (const pid of servers) pin('0', pid);
  pin('1', process.pid);
  return true;
}

type RoundShape = Pick<ThroughputShape, 'connections' | 'seconds' | 'rounds' | 'warmSeconds'>;

/** An uncounted run per target: JIT, keep-alive sockets, the handler's pool. */
export async function warmUp(cannon: Cannon, targets: Target[], shape: RoundShape): Promise<void> {
  for (const target of targets) {
    await cannon({
      ...target.options,
      connections: shape.connections,
      duration: shape.warmSeconds,
    });
  }
}

/**
 * `shape.rounds` rounds in which each target takes its turn (A B C A B C ...), so that a change
 * of the machine's load during the run hits all of them alike.
 */
export async function inTurns(
  cannon: Cannon,
  targets: Target[],
  shape: RoundShape,
): Promise<TargetRun[]> {
  const cpu = (pids: (number | undefined)[]) =>
    pids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
  const runs: TargetRun[] = targets.map((t) => ({
    name: t.name,
    rates: [],
    cpuPerRequest: [],
    ownCpuPerRequest: [],
    p50: [],
    p99: [],
    bad: 0,
  }));
  for (let round = 0; round < shape.rounds; round++) {
    for (const [k, target] of targets.entries()) {
      const cpuBefore = cpu(target.pids);
      const ownBefore = cpu(target.pids.slice(0, 1));
      const result = await cannon({
        ...target.options,
        connections: shape.connections,
        duration: shape.seconds,
      });
      const cpuUsed = cpu(target.pids) - cpuBefore;
      const ownUsed = cpu(target.pids.slice(0, 1)) - ownBefore;
      const run = runs[k]!;
      const served = Math.max(1, result['2xx']);
      run.rates.push(result['2xx'] / result.duration);
      run.cpuPerRequest.push((cpuUsed / served) * 1e6);
      run.ownCpuPerRequest.push((ownUsed / served) * 1e6);
      run.p50.push(result.latency.p50);
      run.p99.push(result.latency.p99);
      run.bad += result.non2xx + result.errors + result.timeouts;
    }
  }
  return runs;
}

/** Per round: `over`'s rate / `under`'s. */
export function perRound(over: TargetRun, under: TargetRun): number[] {
  return over.rates.map((rate, i) => rate / (under.rates[i] ?? Number.NaN));
}

/** Per round: `under`'s CPU time per request / `over`'s (so above 1: `over` costs less). */
function perRoundCpu(over: number[], under: number[]): number[] {
  return over.map((us, i) => (under[i] ?? Number.NaN) / us);
}

export async function measureThroughput(shape: ThroughputShape): Promise<ThroughputReport> {
  const cannon = loadCannon();
  const children: Child<unknown>[] = [];
  try {
    const bare = await startTsChild<{ url: string }>(join(BENCH, 'servers/bare.ts'));
    children.push(bare);
    const sandbox = await startTsChild<SandboxInfo>(join(BENCH, 'servers/sandbox.ts'));
    children.push(sandbox);
    const behindSandbox = { BENCH_SANDBOX: JSON.stringify(sandbox.info) };
    const proxy = await startTsChild<{ url: string }>(
      join(BENCH, 'servers/proxy.ts'),
      behindSandbox,
    );
    children.push(proxy);
    const handler = await startTsChild<{ url: string }>(
      join(BENCH, 'servers/handler.ts'),
      behindSandbox,
    );
    children.push(handler);
    const edge = await startTsChild<{ url: string }>(
      join(BENCH, 'servers/hono-proxy.ts'),
      behindSandbox,
    );
    children.push(edge);
    const id = encodeURIComponent(await createCheckout(sandbox.info));
    const baseline =
      shape.baseline === undefined
        ? undefined
        : await startTsChild<SandboxInfo>(join(BENCH, 'servers/sandbox.ts'), {
            BENCH_SANDBOX_SOURCE: join(resolve(shape.baseline), 'src/sandbox/index.ts'),
          });
    if (baseline) children.push(baseline);
    const baselineId = baseline && encodeURIComponent(await createCheckout(baseline.info));
    const baselineHandler =
      shape.baseline === undefined
        ? undefined
        : await startTsChild<{ url: string }>(
            join(resolve(shape.baseline), 'bench/servers/handler.ts'),
            behindSandbox,
          );
    if (baselineHandler) children.push(baselineHandler);

    const targets: Target[] = [
      {
        name: 'bare node:http JSON',
        options: { url: `${bare.info.url}/` },
        pids: [bare.process.pid],
      },
      {
        name: 'sandbox GET /v0.1/checkouts/{id}',
        options: {
          url: `${sandbox.info.url}/v0.1/checkouts/${id}`,
          headers: { authorization: `Bearer ${sandbox.info.apiKey}` },
        },
        pids: [sandbox.process.pid],
      },
      {
        name: 'bare proxy to the sandbox',
        options: { url: `${proxy.info.url}/v0.1/checkouts/${id}` },
        pids: [proxy.process.pid, sandbox.process.pid],
      },
      {
        name: 'handler GET /payments/checkouts/:id',
        options: { url: `${handler.info.url}/checkouts/${id}` },
        pids: [handler.process.pid, sandbox.process.pid],
      },
      {
        name: "bare proxy behind the handler's edge",
        options: { url: `${edge.info.url}/checkouts/${id}` },
        pids: [edge.process.pid, sandbox.process.pid],
      },
      ...(baseline === undefined
        ? []
        : [
            {
              name: 'baseline sandbox GET /v0.1/checkouts/{id}',
              options: {
                url: `${baseline.info.url}/v0.1/checkouts/${baselineId}`,
                headers: { authorization: `Bearer ${baseline.info.apiKey}` },
              },
              pids: [baseline.process.pid],
            },
          ]),
      ...(baselineHandler === undefined
        ? []
        : [
            {
              name: 'baseline handler GET /payments/checkouts/:id',
              options: { url: `${baselineHandler.info.url}/checkouts/${id}` },
              pids: [baselineHandler.process.pid, sandbox.process.pid],
            },
          ]),
    ];
    const pinned = pinIfAsked(children.map((child) => child.process.pid));
    const perf = perfDir();
    const loadBefore = loadavg();
    await warmUp(cannon, targets, shape);
    // Recorded over the measured rounds only, after the warm-up's compiling.
    const stopPerf =
      perf === undefined
        ? []
        : await Promise.all(
            Object.entries({ bare, sandbox, proxy, handler, edge }).map(([name, child]) =>
              recordPerf(perf, name, child.process.pid),
            ),
          );
    const runs = await inTurns(cannon, targets, shape);
    const loadAfter = loadavg();
    for (const stop of stopPerf) await stop();
    const [b, s, p, h, e, base, baseHandler] = runs as [
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun?,
      TargetRun?,
    ];
    return {
      targets: runs,
      sandboxRatio: perRound(s, b),
      handlerRatio: perRound(h, s),
      proxyRatio: perRound(p, s),
      handlerToProxyRatio: perRound(h, p),
      handlerToProxyCpuRatio: perRoundCpu(h.cpuPerRequest, p.cpuPerRequest),
      handlerToProxyOwnCpuRatio: perRoundCpu(h.ownCpuPerRequest, p.ownCpuPerRequest),
      edgeToProxyRatio: perRound(e, p),
      handlerToEdgeRatio: perRound(h, e),
      ...(base && { baselineRatio: perRound(s, base) }),
      ...(baseHandler && { baselineHandlerToProxyRatio: perRound(baseHandler, p) }),
      loadBefore,
      loadAfter,
      pinned,
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}
