// The one load generator of the benches: a fixed number of operations at a fixed
// concurrency, capped in time, against loopback servers only. An operation is a
// short sequence of HTTP requests (e.g. create then get); each request's latency
// is kept under its label.
import { Agent, request as httpRequest } from 'node:http';

export interface HttpResult {
  status: number;
  body: unknown;
}

export interface Client {
  request(
    label: string,
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: unknown },
  ): Promise<HttpResult>;
}

export interface LoadOptions {
  /** Operations to run in all. */
  total: number;
  concurrency: number;
  /** Stop starting operations after this long; what finished is reported. */
  timeLimitMs: number;
  op(client: Client, index: number): Promise<void>;
}

export interface LoadReport {
  completed: number;
  failed: number;
  firstError?: string;
  elapsedMs: number;
  /** Completed operations per second. */
  opsPerSecond: number;
  /** Latencies in ms per request label, sorted ascending. */
  latencies: Map<string, number[]>;
  timedOut: boolean;
}

function assertLoopback(url: URL): void {
  // A load test may only ever hit this machine.
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`load generator refuses non-loopback target ${url.host}`);
  }
}

/** node:http with keep-alive: far less client CPU per request than fetch on a 2-core box. */
function makeClient(agent: Agent, latencies: Map<string, number[]>): Client {
  return {
    request(label, url, init = {}) {
      const target = new URL(url);
      assertLoopback(target);
      const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
      const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const started = performance.now();
      return new Promise<HttpResult>((resolve, reject) => {
        const req = httpRequest(
          target,
          { method: init.method ?? 'GET', headers, agent, timeout: 10_000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const list = latencies.get(label) ?? [];
              list.push(performance.now() - started);
              latencies.set(label, list);
              const text = Buffer.concat(chunks).toString('utf8');
              let body: unknown = text;
              try {
                body = text ? JSON.parse(text) : undefined;
              } catch {
                // Not JSON: keep the text so the caller's error names what came back.
              }
              resolve({ status: res.statusCode ?? 0, body });
            });
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${label}: no answer in 10 s`)));
        req.on('error', reject);
        req.end(payload);
      });
    },
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies = new Map<string, number[]>();
  const client = makeClient(agent, latencies);
  const started = performance.now();
  const deadline = started + options.timeLimitMs;
  let next = 0;
  let completed = 0;
  let failed = 0;
  let firstError: string | undefined;
  let timedOut = false;

  async function worker(): Promise<void> {
    while (next < options.total) {
      if (performance.now() > deadline) {
        timedOut = true;
        return;
      }
      const index = next++;
      try {
        await options.op(client, index);
        completed += 1;
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const elapsedMs = performance.now() - started;
  for (const list of latencies.values()) list.sort((a, b) => a - b);
  return {
    completed,
    failed,
    ...(firstError !== undefined && { firstError }),
    elapsedMs,
    opsPerSecond: (completed / elapsedMs) * 1000,
    latencies,
    timedOut,
  };
}

/** Nearest-rank percentile of an ascending list; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The middle value, or the mean of the two middle values of an even count; NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid];
  if (upper === undefined) return Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

/** Throws when a response is not the status the benchmark relies on. */
export function expectStatus(result: HttpResult, status: number, what: string): HttpResult {
  if (result.status !== status) {
    throw new Error(`${what}: HTTP ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`);
  }
  return result;
}
