// Handler overhead and sandbox throughput: one load shape (create a checkout, then
// get it) driven by ./load.ts against servers in their own processes, all on
// 127.0.0.1. Each server gets an uncounted warm-up first (JIT, keep-alive sockets).
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, expectStatus, type LoadReport, runLoad } from './load.ts';
import { type Child, startChild, startTsChild } from './servers/spawn.ts';

const BENCH = dirname(fileURLToPath(import.meta.url));

export interface LoadShape {
  /** Operations (create + get = two requests each). */
  ops: number;
  concurrency: number;
  timeLimitMs: number;
}

/** What bench/servers/sandbox.ts prints: where the sandbox listens and its credentials. */
export interface SandboxInfo {
  url: string;
  apiKey: string;
  merchantCode: string;
}

/** The provider API straight: what the sandbox and Prism both serve. */
function providerOp(base: string, apiKey: string, merchantCode: string, run: string) {
  const auth = { authorization: `Bearer ${apiKey}` };
  return async (client: Client, i: number): Promise<void> => {
    const created = expectStatus(
      await client.request('create', `${base}/v0.1/checkouts`, {
        method: 'POST',
        headers: auth,
        body: {
          checkout_reference: `bench-${run}-${i}`,
          amount: 10,
          currency: 'EUR',
          merchant_code: merchantCode,
          description: 'bench',
        },
      }),
      201,
      'create',
    );
    const id = (created.body as { id?: unknown }).id;
    if (typeof id !== 'string') throw new Error('create: no id in the answer');
    expectStatus(
      await client.request('get', `${base}/v0.1/checkouts/${encodeURIComponent(id)}`, {
        headers: auth,
      }),
      200,
      'get',
    );
  };
}

/** The same two steps as a browser makes them through the companion handler. */
function handlerOp(endpoint: string) {
  const origin = { origin: 'http://127.0.0.1' };
  return async (client: Client): Promise<void> => {
    const created = expectStatus(
      await client.request('create', `${endpoint}/checkouts`, {
        method: 'POST',
        headers: origin,
        body: { order: { sku: 'bench' } },
      }),
      201,
      'create',
    );
    const id = (created.body as { id?: unknown }).id;
    if (typeof id !== 'string') throw new Error('create: no id in the answer');
    expectStatus(
      await client.request('get', `${endpoint}/checkouts/${encodeURIComponent(id)}`, {
        headers: origin,
      }),
      200,
      'get',
    );
  };
}

type Op = (client: Client, i: number) => Promise<void>;

/** Folds the reports of several rounds against one target into one. */
function merge(reports: LoadReport[]): LoadReport {
  const latencies = new Map<string, number[]>();
  for (const r of reports) {
    for (const [label, list] of r.latencies)
      latencies.set(label, [...(latencies.get(label) ?? []), ...list]);
  }
  for (const list of latencies.values()) list.sort((a, b) => a - b);
  const completed = reports.reduce((n, r) => n + r.completed, 0);
  const elapsedMs = reports.reduce((n, r) => n + r.elapsedMs, 0);
  const firstError = reports.find((r) => r.firstError)?.firstError;
  return {
    completed,
    failed: reports.reduce((n, r) => n + r.failed, 0),
    ...(firstError !== undefined && { firstError }),
    elapsedMs,
    opsPerSecond: (completed / elapsedMs) * 1000,
    latencies,
    timedOut: reports.some((r) => r.timedOut),
  };
}

/**
 * Measures targets in alternating rounds (A B A B ...) after warming each, so that a change
 * in the machine's load during the run hits all alike: on a shared machine, one block after
 * the other gave ratios that swung fourfold.
 */
async function compareAll(shape: LoadShape, ops: Op[], rounds = 4): Promise<LoadReport[]> {
  const warm = Math.min(200, shape.ops);
  let offset = -1_000_000; // warm-up indices never collide with measured ones
  for (const op of ops) {
    const base = offset;
    await runLoad({
      total: warm,
      concurrency: shape.concurrency,
      timeLimitMs: 10_000,
      op: (c, i) => op(c, base + i),
    });
    offset += warm;
  }
  const perRound = Math.ceil(shape.ops / rounds);
  const roundLimit = shape.timeLimitMs / rounds;
  const results: LoadReport[][] = ops.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [k, op] of ops.entries()) {
      const base = round * perRound;
      results[k]?.push(
        await runLoad({
          total: Math.min(perRound, shape.ops - base),
          concurrency: shape.concurrency,
          timeLimitMs: roundLimit,
          op: (c, i) => op(c, base + i),
        }),
      );
    }
  }
  const merged = results.map(merge);
  for (const r of merged) {
    if (r.completed === 0) throw new Error(`no operation completed: ${r.firstError}`);
  }
  return merged;
}

async function compare(shape: LoadShape, a: Op, b: Op): Promise<[LoadReport, LoadReport]> {
  const [ra, rb] = await compareAll(shape, [a, b]);
  return [ra as LoadReport, rb as LoadReport];
}

function startSandbox(): Promise<Child<SandboxInfo>> {
  return startTsChild<SandboxInfo>(join(BENCH, 'servers/sandbox.ts'));
}

export interface HandlerOverhead {
  direct: LoadReport;
  /** Through the handler, its rate limits counting every request (out of the bench's reach). */
  handler: LoadReport;
  /** Through the handler with `rateLimit: false`. */
  unlimited: LoadReport;
}

export async function measureHandlerOverhead(shape: LoadShape): Promise<HandlerOverhead> {
  const sandbox = await startSandbox();
  const handlers: Child<{ url: string }>[] = [];
  try {
    for (const limits of ['on', 'off']) {
      handlers.push(
        await startTsChild<{ url: string }>(join(BENCH, 'servers/handler.ts'), {
          BENCH_SANDBOX: JSON.stringify(sandbox.info),
          BENCH_RATE_LIMIT: limits,
        }),
      );
    }
    const [limited, unlimited] = handlers as [Child<{ url: string }>, Child<{ url: string }>];
    const { url, apiKey, merchantCode } = sandbox.info;
    const run = randomUUID().slice(0, 8);
    const [direct, through, open] = (await compareAll(shape, [
      providerOp(url, apiKey, merchantCode, run),
      handlerOp(limited.info.url),
      handlerOp(unlimited.info.url),
    ])) as [LoadReport, LoadReport, LoadReport];
    return { direct, handler: through, unlimited: open };
  } finally {
    for (const handler of handlers) await handler.stop();
    await sandbox.stop();
  }
}

/** The provider spec Prism serves: the copy the schema conformance test vendors. */
export const SPEC_PATH =
  process.env.PROVIDER_OPENAPI ??
  fileURLToPath(new URL('../test/node/schemas/fixtures/provider-openapi.json', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface SandboxVsPrism {
  sandbox: LoadReport;
  prism: LoadReport;
  prismVersion: string;
}

export async function measureSandboxVsPrism(shape: LoadShape): Promise<SandboxVsPrism> {
  if (!existsSync(SPEC_PATH)) {
    throw new Error(`provider OpenAPI not found at ${SPEC_PATH}: set PROVIDER_OPENAPI`);
  }
  const prismBin = join(BENCH, 'node_modules/.bin/prism');
  const port = await freePort();
  const prism = await startChild<true>(
    prismBin,
    ['mock', SPEC_PATH, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'],
    {
      ready: (line) => (line.includes('Prism is listening') ? true : undefined),
      timeoutMs: 60_000,
    },
  );
  let sandbox: Child<SandboxInfo> | undefined;
  try {
    sandbox = await startSandbox();
    const { url, apiKey, merchantCode } = sandbox.info;
    const run = randomUUID().slice(0, 8);
    // Prism checks the request against the spec (fields, bearer present) and answers
    // the spec's example; it keeps no state, so the get reads the example id.
    const [own, mock] = await compare(
      shape,
      providerOp(url, apiKey, merchantCode, run),
      providerOp(`http://127.0.0.1:${port}`, 'sk_test_bench', merchantCode, run),
    );
    return { sandbox: own, prism: mock, prismVersion: await prismVersion(prismBin) };
  } finally {
    await sandbox?.stop();
    await prism.stop();
  }
}

async function prismVersion(bin: string): Promise<string> {
  const child = await startChild<string>(bin, ['--version'], {
    ready: (line) => (/^\d+\.\d+\.\d+/.test(line) ? line : undefined),
    timeoutMs: 30_000,
  }).catch(() => undefined);
  await child?.stop();
  return child?.info ?? 'unknown';
}
