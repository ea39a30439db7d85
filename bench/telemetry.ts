// What OpenTelemetry costs the handler, side by side in one run: the same handler serving
// `GET /payments/checkouts/:id` (a server span, a client span to the sandbox, two duration
// metrics), each variant in its own process in front of one sandbox:
// - `telemetry: false`, no SDK: the floor, nothing of telemetry wired;
// - the default with @opentelemetry/api installed and no SDK registered (most shops): must
//   stay within 3 % of the floor;
// - the OpenTelemetry Node SDK started as the example shop starts it, every request sampled,
//   spans and metrics batched over OTLP/HTTP to a collector stand-in in this process;
// - the same with 1 request in 10 sampled (a common production setting; metrics still count
//   every request);
// - the same SDK in use by the app (it has recorded a span) and the handler's `telemetry: false`:
//   what the SDK costs the process by itself. On Node 20 most of that is AsyncLocalStorage's
//   promise hook, which the SDK's context manager switches on for the whole process the first
//   time a context is entered (by any instrumentation, or the batch processor's own export).
// Beside them, the anchor: the bare proxy (./servers/proxy.ts: node:http in, undici out, the
// same GET) without OpenTelemetry and with the same SDK and exporter running the official
// @opentelemetry/instrumentation-http and -undici (a server span, a client span, their duration
// metrics: what the handler records). Its ratio is what OpenTelemetry's own instrumentations
// cost the least server that does this work, on the Node the bench runs on.
// Targets take turns (./throughput.ts), the ratios are taken per round.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxInfo } from './http.ts';
import { type InProcessRun, loopsInTurns } from './in-process.ts';
import { type Child, startTsChild } from './servers/spawn.ts';
import {
  createCheckout,
  inTurns,
  loadCannon,
  perRound,
  type Target,
  type TargetRun,
  type ThroughputShape,
  warmUp,
} from './throughput.ts';

export interface TelemetryReport {
  targets: TargetRun[];
  /** Per round: no SDK / telemetry: false. */
  noSdkRatio: number[];
  /** Per round: SDK and batching exporter / telemetry: false. */
  sdkRatio: number[];
  /** Per round: the same, 1 in 10 sampled / telemetry: false. */
  sampledRatio: number[];
  /** Per round: SDK / the same SDK with the handler's telemetry: false (the handler's share). */
  handlerShareRatio: number[];
  /** Per round: the bare proxy with the SDK and the official instrumentations / without. */
  proxyRatio: number[];
  /**
   * Per round, of CPU per request (without / with, so a share kept like the ratios above): the
   * handler's Node SDK all sampled against telemetry: false, then the proxy's. On a loaded
   * machine CPU per request moves less than req/s with what else runs.
   */
  cpuRatio: { handler: number[]; proxy: number[] };
  /** What the collector stand-in received: proof the SDK target exported. */
  exports: { requests: number; bytes: number };
}

const BENCH = dirname(fileURLToPath(import.meta.url));

const VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: 'telemetry: false', env: { BENCH_TELEMETRY: 'off' } },
  { name: 'no SDK registered', env: { BENCH_TELEMETRY: 'api' } },
  { name: 'Node SDK, OTLP batching, all sampled', env: { BENCH_TELEMETRY: 'sdk' } },
  {
    name: 'Node SDK, OTLP batching, 1 in 10 sampled',
    env: {
      BENCH_TELEMETRY: 'sdk',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    },
  },
  { name: 'Node SDK in use, telemetry: false', env: { BENCH_TELEMETRY: 'sdk-off' } },
];

/** The anchor, in ./servers/proxy.ts: without OpenTelemetry, then with the official instrumentations. */
const PROXY_VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: 'bare proxy, no OpenTelemetry', env: {} },
  {
    name: 'bare proxy, Node SDK + official http & undici instrumentations, all sampled',
    env: { BENCH_TELEMETRY: 'sdk' },
  },
];

/** Per round: the CPU per request of `under` / that of `over` (the share `over` keeps). */
function cpuPerRound(over: TargetRun, under: TargetRun): number[] {
  return over.cpuPerRequest.map((us, i) => (under.cpuPerRequest[i] ?? Number.NaN) / us);
}

/** Takes OTLP exports and throws them away, counting them; in this process, not the handler's. */
async function startSink() {
  const exports = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      exports.bytes += chunk.length;
    });
    req.on('end', () => {
      exports.requests += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, exports, close };
}

export async function measureTelemetry(
  shape: Omit<ThroughputShape, 'baseline'>,
): Promise<TelemetryReport> {
  const cannon = loadCannon();
  const sink = await startSink();
  const children: Child<unknown>[] = [];
  try {
    const sandbox = await startTsChild<SandboxInfo>(join(BENCH, 'servers/sandbox.ts'));
    children.push(sandbox);
    const targets: Target[] = [];
    const id = encodeURIComponent(await createCheckout(sandbox.info));
    for (const variant of VARIANTS) {
      const handler = await startTsChild<{ url: string }>(join(BENCH, 'servers/handler.ts'), {
        BENCH_SANDBOX: JSON.stringify(sandbox.info),
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_SERVICE_NAME: 'payment-widget-bench',
        ...variant.env,
      });
      children.push(handler);
      // The handler's own CPU: the sandbox behind it does the same work for every variant.
      targets.push({
        name: variant.name,
        options: { url: `${handler.info.url}/checkouts/${id}` },
        pids: [handler.process.pid],
      });
    }
    for (const variant of PROXY_VARIANTS) {
      const proxy = await startTsChild<{ url: string }>(join(BENCH, 'servers/proxy.ts'), {
        BENCH_SANDBOX: JSON.stringify(sandbox.info),
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_SERVICE_NAME: 'payment-widget-bench',
        ...variant.env,
      });
      children.push(proxy);
      targets.push({
        name: variant.name,
        options: { url: `${proxy.info.url}/v0.1/checkouts/${id}` },
        pids: [proxy.process.pid],
      });
    }
    await warmUp(cannon, targets, shape);
    const runs = await inTurns(cannon, targets, shape);
    const [off, noSdk, sdk, sampled, sdkOff, proxyOff, proxySdk] = runs as [
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
      TargetRun,
    ];
    return {
      targets: runs,
      noSdkRatio: perRound(noSdk, off),
      sdkRatio: perRound(sdk, off),
      sampledRatio: perRound(sampled, off),
      handlerShareRatio: perRound(sdk, sdkOff),
      proxyRatio: perRound(proxySdk, proxyOff),
      cpuRatio: { handler: cpuPerRound(sdk, off), proxy: cpuPerRound(proxySdk, proxyOff) },
      exports: { ...sink.exports },
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await sink.close();
  }
}

export interface InProcessReport {
  runs: InProcessRun[];
  /** Per round, of requests per second (wall): each variant / telemetry: false. */
  ratios: number[][];
  requests: number;
}

/**
 * The same variants with the handler called in process (./servers/handler-loop.ts): one
 * process at a time is busy, so the machine's other load and the sandbox's share of the cores
 * stay out of the comparison. Rounds take turns as above.
 */
export async function measureInProcess(rounds: number, requests: number): Promise<InProcessReport> {
  const sink = await startSink();
  const children: Child<unknown>[] = [];
  try {
    for (const variant of VARIANTS) {
      children.push(
        await startTsChild<unknown>(join(BENCH, 'servers/handler-loop.ts'), {
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_SERVICE_NAME: 'payment-widget-bench',
          ...variant.env,
        }),
      );
    }
    const named = VARIANTS.map((v, k) => ({ name: v.name, child: children[k]! }));
    const runs = await loopsInTurns(named, rounds, requests);
    const floor = runs[0]!;
    const ratios = runs.map((r) => r.wallUs.map((us, i) => (floor.wallUs[i] ?? Number.NaN) / us));
    return { runs, ratios, requests };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await sink.close();
  }
}
