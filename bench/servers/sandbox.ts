// Child process: the sandbox on a random loopback port, in its own process (as
// `payment-sandbox` runs), so its CPU is not shared with the load generator's
// event loop. Prints one JSON line; exits when its parent's pipe closes.
// BENCH_SANDBOX_SOURCE names another checkout's src/sandbox/index.ts (BENCH_BASELINE).
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

type SandboxModule = typeof import('../../src/sandbox/index.ts');
const source = process.env.BENCH_SANDBOX_SOURCE;
const { createSandbox }: SandboxModule =
  source !== undefined && isAbsolute(source)
    ? await import(pathToFileURL(source).href)
    : await import('../../src/sandbox/index.ts');

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey, merchantCode: sandbox.merchantCode })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => {
  void sandbox.close().then(() => process.exit(0));
});
