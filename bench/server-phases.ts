// The server phases of `npm run bench`: the handler's overhead, the sandbox against Prism, the
// handler's and the sandbox's throughput, and what OpenTelemetry costs the handler, each
// printed with its acceptance floors.
import { type LoadReport, median, percentile } from './load.ts';
import {
  intFromEnv,
  ms,
  rate,
  ratio,
  roundsShape,
  spread,
  table,
  targetTable,
  times,
  verdict,
  voidIfBad,
} from './report.ts';

function loadRow(name: string, r: LoadReport): (string | number)[] {
  const get = (label: string, p: number) => ms(percentile(r.latencies.get(label) ?? [], p));
  return [
    name,
    `${r.completed}${r.failed ? ` (+${r.failed} failed)` : ''}${r.timedOut ? ' (time cap)' : ''}`,
    get('create', 50),
    get('create', 99),
    get('get', 50),
    get('get', 99),
    r.opsPerSecond.toFixed(0),
  ];
}

const LOAD_HEADERS = ['target', 'ops', 'create p50', 'create p99', 'get p50', 'get p99', 'ops/s'];

function shape() {
  return {
    ops: intFromEnv('BENCH_OPS', 2000),
    concurrency: intFromEnv('BENCH_CONCURRENCY', 8),
    timeLimitMs: 60_000,
  };
}

export async function handlerPhase(): Promise<void> {
  const { measureHandlerOverhead } = await import('./http.ts');
  const s = shape();
  const { direct, handler, unlimited } = await measureHandlerOverhead(s);
  console.log(
    `## Handler overhead (${s.ops} x create+get, concurrency ${s.concurrency}, loopback; ms)\n`,
  );
  table(LOAD_HEADERS, [
    loadRow('sandbox direct', direct),
    loadRow('through the handler', handler),
    loadRow('through the handler, rateLimit: false', unlimited),
  ]);
  const p50 = (r: LoadReport) => median(r.latencies.get('create') ?? []);
  console.log(
    `- throughput through the handler / direct: ${ratio(handler.opsPerSecond, direct.opsPerSecond)}; added p50 per create ${ms(p50(handler) - p50(direct))} ms`,
  );
  // The rate limits count every create (an address parsed, a counter hit): their cost.
  console.log(
    `- rate limits on / off: throughput ${ratio(handler.opsPerSecond, unlimited.opsPerSecond)}; p50 per create ${ms(p50(handler) - p50(unlimited))} ms added\n`,
  );
  for (const r of [direct, handler, unlimited])
    if (r.firstError) console.log(`- first error: ${r.firstError}`);
  const { measureLimiterCost } = await import('./rate-limit.ts');
  const cost = await measureLimiterCost();
  const us = (n: number) => n.toFixed(1);
  console.log(
    `- POST /checkouts in process up to the provider call (1,000 client addresses, memory counters; µs per request, median (min-max) of ${cost.on.length} rounds): limits on ${spread(cost.on, us)}, off ${spread(cost.off, us)}\n`,
  );
}

export async function prismPhase(): Promise<void> {
  const { measureSandboxVsPrism, SPEC_PATH } = await import('./http.ts');
  const s = shape();
  const result = await measureSandboxVsPrism(s);
  console.log(
    `## Sandbox vs Prism ${result.prismVersion} mock of ${SPEC_PATH} (${s.ops} x create+get, concurrency ${s.concurrency}; ms)\n`,
  );
  table(LOAD_HEADERS, [loadRow('sandbox', result.sandbox), loadRow('prism mock', result.prism)]);
  console.log(
    `- sandbox throughput / prism: ${ratio(result.sandbox.opsPerSecond, result.prism.opsPerSecond)}\n`,
  );
  for (const r of [result.sandbox, result.prism]) {
    if (r.firstError) console.log(`- first error: ${r.firstError}`);
  }
}

/** The acceptance floors: the sandbox against bare node:http, the handler against the sandbox. */
const SANDBOX_FLOOR = 0.3;
const HANDLER_FLOOR = 0.4;
/** The handler's own work: at least this share of a bare proxy's rate in front of one sandbox (the aim). */
const HANDLER_PROXY_FLOOR = 0.9;

export async function throughputPhase(): Promise<void> {
  const { measureThroughput } = await import('./throughput.ts');
  const shape = {
    // Short turns, many rounds: a round whose turns fall in one phase of this machine's speed
    // compares like with like (turns of 5 s, 3 rounds, spread 0.6-1.7x per round).
    ...roundsShape(10, 2),
    ...(process.env.BENCH_BASELINE && { baseline: process.env.BENCH_BASELINE }),
  };
  const r = await measureThroughput(shape);
  console.log(
    `## Throughput (autocannon, ${shape.connections} connections, loopback, ${shape.rounds} rounds of ${shape.seconds} s per target, taking turns${r.pinned ? '; servers on CPU 0, autocannon on CPU 1' : ''}; median (min-max))\n`,
  );
  targetTable(r.targets, 'server CPU µs/req', 'own process CPU µs/req');
  console.log(
    `- sandbox / bare node:http: ${spread(r.sandboxRatio, times)}, ${verdict(r.sandboxRatio, SANDBOX_FLOOR)}`,
  );
  console.log(
    `- handler / sandbox direct: ${spread(r.handlerRatio, times)}, ${verdict(r.handlerRatio, HANDLER_FLOOR)}`,
  );
  // Where the handler's gap comes from: the second HTTP hop, or the handler's own work.
  console.log(`- bare proxy / sandbox direct: ${spread(r.proxyRatio, times)}`);
  console.log(
    `- handler / bare proxy: ${spread(r.handlerToProxyRatio, times)}, ${verdict(r.handlerToProxyRatio, HANDLER_PROXY_FLOOR)}`,
  );
  // The same by CPU time per request (steadier than req/s on a shared machine): with the
  // sandbox, and the handler's process against the proxy's alone (a provider elsewhere).
  console.log(
    `- handler / bare proxy by CPU per request: with the sandbox ${spread(r.handlerToProxyCpuRatio, times)}, own process alone ${spread(r.handlerToProxyOwnCpuRatio, times)}`,
  );
  // ... and that work split: the edge (toNodeListener, Hono), then the handler's own.
  console.log(
    `- bare proxy behind the handler's edge / bare proxy: ${spread(r.edgeToProxyRatio, times)}`,
  );
  console.log(`- handler / bare proxy behind its edge: ${spread(r.handlerToEdgeRatio, times)}`);
  if (r.baselineRatio) {
    console.log(
      `- sandbox / baseline sandbox (${process.env.BENCH_BASELINE}): ${spread(r.baselineRatio, times)}`,
    );
  }
  if (r.baselineHandlerToProxyRatio) {
    console.log(
      `- baseline handler / bare proxy: ${spread(r.baselineHandlerToProxyRatio, times)} (this handler: ${spread(r.handlerToProxyRatio, times)}; floor ${HANDLER_PROXY_FLOOR.toFixed(2)}x)`,
    );
  }
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  console.log(`- load average before: ${load(r.loadBefore)}; after: ${load(r.loadAfter)}\n`);
  voidIfBad(r.targets);
  if (shape.baseline !== undefined) await baselineLoops(shape.baseline);
}

/** The sandbox and the handler against the baseline's, each called in process (./in-process.ts). */
async function baselineLoops(baseline: string): Promise<void> {
  const { measureBaselineLoops } = await import('./in-process.ts');
  // Short turns, many rounds: this machine's speed shifts in phases of seconds, and a round
  // whose turns fall in one phase compares like with like (turns of 20,000 requests, 15
  // rounds, gave per-round ratios of 0.4-1.6x where 5,000 and 60 gave 0.9-1.1x).
  const loops = await measureBaselineLoops(baseline, intFromEnv('BENCH_LOOP_ROUNDS', 60), 5_000);
  console.log(
    `### In process, against the baseline (each called with a Request, no socket; ${loops.runs[0].cpuUs.length} rounds of ${loops.requests} requests each, taking turns; median (min-max))\n`,
  );
  table(
    ['server', 'requests/s', 'CPU µs/req'],
    loops.runs.map((run) => [
      run.name,
      spread(
        run.wallUs.map((us) => 1e6 / us),
        rate,
      ),
      spread(run.cpuUs, (n) => n.toFixed(1)),
    ]),
  );
  console.log(
    `- CPU per request, this / baseline, per round (below 1: less): sandbox ${spread(loops.sandboxCpu, times)}, handler ${spread(loops.handlerCpu, times)}\n`,
  );
}

/** The acceptance floors of OpenTelemetry's cost, against the handler with `telemetry: false`. */
const NO_SDK_FLOOR = 0.97;
const SDK_FLOOR = 0.85;

export async function telemetryPhase(): Promise<void> {
  const { measureTelemetry } = await import('./telemetry.ts');
  const shape = roundsShape(5);
  const r = await measureTelemetry(shape);
  console.log(
    `## OpenTelemetry's cost (handler GET /payments/checkouts/:id, and a bare proxy's GET beside it, in front of one sandbox; autocannon, ${shape.connections} connections, ${shape.rounds} rounds of ${shape.seconds} s per target, taking turns; median (min-max))\n`,
  );
  targetTable(r.targets, 'handler CPU µs/req');
  console.log(
    `- no SDK registered / telemetry: false: ${spread(r.noSdkRatio, times)}, ${verdict(r.noSdkRatio, NO_SDK_FLOOR)}`,
  );
  console.log(
    `- Node SDK, all sampled / telemetry: false: ${spread(r.sdkRatio, times)}, ${verdict(r.sdkRatio, SDK_FLOOR)}`,
  );
  console.log(
    `- Node SDK, 1 in 10 sampled / telemetry: false: ${spread(r.sampledRatio, times)}, ${verdict(r.sampledRatio, SDK_FLOOR)}`,
  );
  // The handler's own share once the app runs the SDK (its context manager then costs alike).
  console.log(
    `- Node SDK, all sampled / the same SDK in use with telemetry: false: ${spread(r.handlerShareRatio, times)}, ${verdict(r.handlerShareRatio, SDK_FLOOR)}`,
  );
  // The anchor: what the official instrumentations cost a bare proxy, on this Node, this run.
  console.log(
    `- bare proxy, Node SDK + official http & undici instrumentations / no OpenTelemetry: ${spread(r.proxyRatio, times)} (the handler, Node SDK all sampled / telemetry: false: ${spread(r.sdkRatio, times)}; Node ${process.version})`,
  );
  console.log(
    `- the same in CPU per request, without / with: bare proxy ${spread(r.cpuRatio.proxy, times)}, handler ${spread(r.cpuRatio.handler, times)}`,
  );
  console.log(
    `- the collector stand-in received ${r.exports.requests} OTLP exports, ${(r.exports.bytes / 1024).toFixed(0)} KiB\n`,
  );
  voidIfBad(r.targets);

  const { measureInProcess } = await import('./telemetry.ts');
  const loops = await measureInProcess(intFromEnv('BENCH_LOOP_ROUNDS', 15), 3000);
  console.log(
    `### In process (the handler called with a Request, the provider a stand-in answering at once; ${loops.runs[0]?.cpuUs.length} rounds of ${loops.requests} requests per variant, taking turns; median (min-max))\n`,
  );
  table(
    ['variant', 'requests/s', 'CPU µs/req', '/ telemetry: false'],
    loops.runs.map((run, k) => [
      run.name,
      spread(
        run.wallUs.map((us) => 1e6 / us),
        rate,
      ),
      spread(run.cpuUs, (n) => n.toFixed(1)),
      spread(loops.ratios[k] ?? [], times),
    ]),
  );
  const [, noSdk, sdk, sampled] = loops.ratios;
  console.log(
    `- in process: no SDK ${verdict(noSdk ?? [], NO_SDK_FLOOR)}; Node SDK all sampled ${verdict(sdk ?? [], SDK_FLOOR)}; 1 in 10 sampled ${verdict(sampled ?? [], SDK_FLOOR)}\n`,
  );
}
