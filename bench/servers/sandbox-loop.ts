// Child process: the sandbox's app called in process (`sandbox.handle`, a Web Request in and a
// Response out) for `GET /v0.1/checkouts/{id}` of one checkout: the sandbox's own work and
// nothing else (no socket, no load generator on the same cores). BENCH_SANDBOX_SOURCE names
// another checkout's src/sandbox/index.ts, as for ./sandbox.ts. Prints one JSON line, then
// answers each `run N` on stdin with one JSON line: CPU µs and wall µs per request.
import { serveLoop } from './loop.ts';
import { sandboxModule } from './sandbox-source.ts';

const { createSandbox } = await sandboxModule();
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

serveLoop(
  async () => {
    const answer = await sandbox.handle(new Request(url, { headers: { authorization } }));
    if (answer.status !== 200) throw new Error(`GET ${url}: HTTP ${answer.status}`);
    await answer.text();
  },
  () => sandbox.close(),
);
