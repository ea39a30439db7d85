// Child process: the sandbox on a random loopback port, in its own process (as
// `payment-sandbox` runs), so its CPU is not shared with the load generator's
// event loop. Prints one JSON line; exits when its parent's pipe closes.
// BENCH_SANDBOX_SOURCE names another checkout's src/sandbox/index.ts (BENCH_BASELINE).
import { sandboxModule } from './sandbox-source.ts';

const { createSandbox } = await sandboxModule();
const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey, merchantCode: sandbox.merchantCode })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => {
  void sandbox.close().then(() => process.exit(0));
});
