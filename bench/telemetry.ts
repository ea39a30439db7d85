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
// Targets take turns (./throughput.ts), the ratios are taken per round.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxInfo } from './http.ts';
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
    await warmUp(cannon, targets, shape);
    const runs = await inTurns(cannon, targets, shape);
    const [off, noSdk, sdk, sampled, sdkOff] = runs as [
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
      exports: { ...sink.exports },
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await sink.close();
  }
}
