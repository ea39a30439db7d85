// Drives a fuzz target with fast-check: batches of generated requests sent concurrently,
// most in process through `handle(request)`, a share over a real socket. Every answer must
// be a 2xx/3xx or a 4xx with a JSON error that says what is wrong (the field when a field
// is wrong); never a 5xx, a dropped connection or a crash.
import fc from 'fast-check';
import {
  type BodyCase,
  bodyCases,
  contentType,
  pathSegment,
  preview,
  printable,
  weirdString,
} from './inputs.ts';
import type { Credential, RouteSpec, Target } from './targets.ts';

export interface Plan {
  /** Index into the target's routes (an index keeps failure reports short). */
  route: number;
  label: string;
  method: string;
  /** One per `:hole` in the path: null asks for a fresh resource, a string is sent raw. */
  holes: (string | null)[];
  query: string;
  body?: BodyCase;
  contentType?: string | undefined;
  credential: Credential;
  wrong: string;
}

export interface FuzzStats {
  requests: number;
  overHttp: number;
  byStatus: Record<number, number>;
  ms: number;
}

const WRONG_CREDENTIALS = [
  'Bearer sk_live_fake',
  'Bearer sk_test_unknown',
  'Basic c2tfdGVzdDo=',
  'Bearer',
  'Bearer  sk_test_sandbox extra',
  'https://evil.example',
  'null',
  'https://shop.example.evil.com',
  'https://shop.example:8443',
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];

function formCases(template: Record<string, string>): fc.Arbitrary<BodyCase> {
  const entries = fc.dictionary(
    fc.constantFrom(...Object.keys(template), 'other'),
    fc.oneof(fc.constantFrom(...Object.values(template)), weirdString),
    { maxKeys: 4 },
  );
  return fc
    .oneof(
      fc.constant({ text: new URLSearchParams(template).toString(), label: 'valid form' }),
      entries.map((record) => ({
        text: new URLSearchParams(record).toString(),
        label: `form ${preview(record)}`,
      })),
      weirdString.map((text) => ({ text, label: `raw form ${preview(text)}` })),
    )
    .map(printable);
}

export function planFor(route: RouteSpec, index: number): fc.Arbitrary<Plan> {
  const holeCount = (route.path.match(/:\w+/g) ?? []).length;
  const body =
    route.body === undefined
      ? fc.constant(undefined)
      : route.form
        ? formCases(route.body as Record<string, string>)
        : bodyCases(route.body);
  const type = route.form
    ? fc.oneof(
        { arbitrary: fc.constant('application/x-www-form-urlencoded'), weight: 5 },
        { arbitrary: contentType, weight: 1 },
      )
    : contentType;
  return fc.record({
    route: fc.constant(index),
    label: fc.constant(`${route.method} ${route.path}`),
    method: fc.oneof(
      { arbitrary: fc.constant(route.method), weight: 9 },
      { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
    ),
    holes: fc.array(
      fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: pathSegment, weight: 1 }),
      {
        minLength: holeCount,
        maxLength: holeCount,
      },
    ),
    query:
      route.query ??
      fc.oneof(
        { arbitrary: fc.constant(''), weight: 5 },
        { arbitrary: fc.constant('?x=1'), weight: 1 },
      ),
    body,
    contentType: type,
    credential: fc.oneof(
      { arbitrary: fc.constant<Credential>('valid'), weight: 16 },
      { arbitrary: fc.constant<Credential>('none'), weight: 1 },
      { arbitrary: fc.constant<Credential>('wrong'), weight: 2 },
    ),
    wrong: fc.constantFrom(...WRONG_CREDENTIALS),
  });
}

async function toRequestParts(target: Target, route: RouteSpec, plan: Plan) {
  const names = (route.path.match(/:\w+/g) ?? []).map((hole) => hole.slice(1));
  const holes: string[] = [];
  for (const [i, raw] of plan.holes.entries())
    holes.push(raw ?? (await target.fresh(names[i] ?? 'any')));
  let next = 0;
  const path = route.path.replace(/:\w+/g, () => holes[next++] ?? 'x') + plan.query;
  const headers: Record<string, string> = target.credentials(plan.credential, plan.wrong);
  if (plan.contentType !== undefined) headers['content-type'] = plan.contentType;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (plan.body !== undefined && plan.method !== 'GET' && plan.method !== 'HEAD') {
    const text = plan.body.text;
    body = typeof text === 'string' ? await target.fill(text) : text;
  }
  return { path, headers, body };
}

function describe(plan: Plan, path: string, overHttp: boolean): string {
  return `${plan.method} ${preview(path)} [${plan.credential}${overHttp ? ', http' : ''}] body: ${plan.body?.label ?? '(none)'} content-type: ${plan.contentType ?? '(none)'}`;
}

/** What is wrong with this answer, or undefined when it is acceptable. */
function judge(
  target: Target,
  plan: Plan,
  status: number,
  type: string | null,
  text: string,
): string | undefined {
  if (status >= 500 || status < 100) return `answered ${status}: ${text.slice(0, 300)}`;
  if (plan.method === 'HEAD' || status < 400) {
    if (type?.includes('json') && text !== '') {
      try {
        JSON.parse(text);
      } catch {
        return `answered ${status} with a JSON content type and a body that is not JSON`;
      }
    }
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `answered ${status} without a JSON error body: ${text.slice(0, 200)}`;
  }
  const error = target.readError(parsed);
  if (error === undefined)
    return `answered ${status} with an error of the wrong shape: ${text.slice(0, 300)}`;
  if (error.message.trim() === '') return `answered ${status} with an empty message`;
  if (['MISSING', 'INVALID', 'INVALID_JSON'].includes(error.code) && !error.field) {
    return `answered ${status} ${error.code} without naming the field: ${text.slice(0, 300)}`;
  }
  // An error that echoes a 40 KB input back would let anyone reflect content through us.
  if (text.length > 4_096) return `answered ${status} with a ${text.length}-byte error body`;
  return undefined;
}

/**
 * Fields whose validity depends on another one: without a token a card payment needs the
 * card; a token must belong to the customer_id sent with it.
 */
const DEPENDENT: Record<string, readonly string[]> = {
  token: ['card', 'customer_id'],
  customer_id: ['token'],
};

/** Whether a 400 about `field` is a fair answer to breaking `mutated`. */
function related(mutated: string, field: string): boolean {
  return (
    field === mutated ||
    (DEPENDENT[mutated]?.includes(field) ?? false) ||
    field.startsWith(`${mutated}.`) ||
    mutated.startsWith(`${field}.`) ||
    field === 'body'
  );
}

export async function send(
  target: Target,
  plan: Plan,
  stats: FuzzStats,
  overHttp: boolean,
): Promise<void> {
  const route = target.routes[plan.route]!;
  const { path, headers, body } = await toRequestParts(target, route, plan);
  let status: number;
  let type: string | null;
  let text: string;
  const init: RequestInit = {
    method: plan.method,
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
  };
  if (overHttp) {
    const res = await fetch(`${target.url}${path}`, init).catch((error: unknown) => {
      throw new Error(`${describe(plan, path, true)}: the connection failed (${String(error)})`);
    });
    status = res.status;
    type = res.headers.get('content-type');
    text = await res.text();
    stats.overHttp += 1;
  } else {
    const res = await target.handle(new Request(`${target.url}${path}`, init));
    status = res.status;
    type = res.headers.get('content-type');
    text = plan.method === 'HEAD' ? '' : await res.text();
  }
  stats.requests += 1;
  stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  const problem = judge(target, plan, status, type, text);
  if (problem !== undefined) throw new Error(`${describe(plan, path, overHttp)}: ${problem}`);
  // A body broken in one field must be refused for that field (or one that depends on it).
  const mutated = plan.body?.mutated;
  const reachable = plan.credential === 'valid' && plan.holes.every((hole) => hole === null);
  if (status === 400 && mutated !== undefined && reachable) {
    const field = target.readError(JSON.parse(text))?.field;
    if (field !== undefined && !related(mutated, field)) {
      throw new Error(
        `${describe(plan, path, overHttp)}: broke ${mutated} but was told about ${field}: ${text.slice(0, 300)}`,
      );
    }
  }
}

/** The sandbox's list routes grow with every checkout: start over now and then. */
const REFRESH_EVERY = 1_000;

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Requests sent concurrently per property run. */
  batch?: number;
  httpShare?: number;
  timeLimitMs: number;
}

export function routesArbitrary(target: Target): fc.Arbitrary<Plan> {
  return fc.oneof(
    ...target.routes.map((route, index) => ({
      arbitrary: planFor(route, index),
      weight: route.weight ?? 1,
    })),
  );
}

export async function fuzz(target: Target, options: FuzzOptions): Promise<FuzzStats> {
  const batch = options.batch ?? 50;
  const stats: FuzzStats = { requests: 0, overHttp: 0, byStatus: {}, ms: 0 };
  const started = performance.now();
  // Every n-th request goes over the socket; a generated flag would be biased to one side.
  const every = Math.max(1, Math.round(1 / (options.httpShare ?? 0.05)));
  let sent = 0;
  const plans = fc.array(routesArbitrary(target), {
    minLength: batch,
    maxLength: batch,
  });
  await fc.assert(
    fc.asyncProperty(plans, async (batchPlans) => {
      const first = sent;
      sent += batchPlans.length;
      await Promise.all(
        batchPlans.map((plan, i) => send(target, plan, stats, (first + i + 1) % every === 0)),
      );
      if (sent % REFRESH_EVERY < batch) await target.refresh();
    }),
    {
      numRuns: Math.ceil(options.runs / batch),
      seed: options.seed,
      // The time limit ends the run without failing it (`npm run fuzz` is bounded so); the
      // suites check that every request was sent (FuzzStats.requests).
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    },
  );
  stats.ms = performance.now() - started;
  return stats;
}

/** The seed: `FUZZ_SEED` when set (to replay a failure), else a fixed one so CI is stable. */
export function fuzzSeed(fallback: number): number {
  const raw = process.env.FUZZ_SEED;
  return raw === undefined || raw === '' ? fallback : Number(raw);
}

export function summary(name: string, seed: number, stats: FuzzStats): string {
  const statuses = Object.entries(stats.byStatus)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  const rate = stats.requests / (stats.ms / 1000);
  return `fuzz ${name}: seed ${seed}, ${stats.requests} requests (${stats.overHttp} over HTTP) in ${(stats.ms / 1000).toFixed(1)} s (${rate.toFixed(0)}/s); ${statuses}`;
}

/**
 * Refuses any fetch that would leave the machine (a fuzzed return_url, say) and counts it:
 * the sandbox's webhooks use the global fetch.
 */
export function keepFetchOnLoopback(): { blocked: string[]; restore(): void } {
  const original = globalThis.fetch;
  const blocked: string[] = [];
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') {
      blocked.push(url.href.slice(0, 200));
      return Promise.reject(new TypeError('fuzz: only loopback may be fetched'));
    }
    return original(input, init);
  };
  return {
    blocked,
    restore() {
      globalThis.fetch = original;
    },
  };
}
