// Child process: the sandbox's app called in process (`sandbox.handle`, a Web Request in and a
// Response out) for `GET /v0.1/checkouts/{id}` of one checkout: the sandbox's own work and
// nothing else (no socket, no load generator on the same cores). BENCH_SANDBOX_SOURCE names
// another checkout's src/sandbox/index.ts, as for ./sandbox.ts. Prints one JSON line, then
// answers each `run N` on stdin with one JSON line: CPU µs and wall µs per request.
import { isAbsolute } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

type SandboxModule = typeof import('../../src/sandbox/index.ts');
const source = process.env.BENCH_SANDBOX_SOURCE;
const { createSandbox }: SandboxModule =
  source !== undefined && isAbsolute(source)
    ? await import(pathToFileURL(source).href)
    : await import('../../src/sandbox/index.ts');

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
const authorization = `Bearer ${sandbox.apiKey}`;
const created = await sandbox.handle(
  new Request(`${sandbox.url}/v0.1/checkouts`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({
      checkout_reference: 'bench-in-process',
      amount: 10,
      currency: 'EUR',
      merchant_code: sandbox.merchantCode,
    }),
  }),
);
const { id } = (await created.json()) as { id?: string };
if (created.status !== 201 || id === undefined) {
  throw new Error(`could not create the bench checkout: HTTP ${created.status}`);
}
const url = `${sandbox.url}/v0.1/checkouts/${id}`;

async function run(count: number): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const answer = await sandbox.handle(new Request(url, { headers: { authorization } }));
    if (answer.status !== 200) throw new Error(`GET ${url}: HTTP ${answer.status}`);
    await answer.text();
  }
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / count,
    wallUs: ((performance.now() - started) * 1000) / count,
  };
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const count = Number(/^run (\d+)$/.exec(line)?.[1]);
  if (!Number.isInteger(count)) return;
  void run(count).then((result) => process.stdout.write(`${JSON.stringify(result)}\n`));
});
lines.on('close', () => {
  void sandbox.close().then(() => process.exit(0));
});
