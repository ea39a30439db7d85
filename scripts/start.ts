/**
 * `npm start`: the sandbox on 4010 and the example shop on 3000 in one process,
 * stopped together on Ctrl-C. (`npm start` builds the widget first.)
 * SANDBOX_PORT and PORT move them when those ports are taken; REDIS_URL shares the
 * hooks' claims in that Redis.
 */
import { existsSync } from 'node:fs';
import { startServerExample } from '../server-example/index.ts';
import { createSandbox } from '../src/sandbox/index.ts';

if (!existsSync(new URL('../dist/payment-widget.iife.js', import.meta.url))) {
  console.error('The widget is not built: run `npm run build` (or `npm start`, which builds).');
  process.exit(1);
}

const sandbox = await createSandbox({ port: Number(process.env.SANDBOX_PORT ?? 4010) });
let shop: Awaited<ReturnType<typeof startServerExample>>;
try {
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: Number(process.env.PORT ?? 3000),
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    log: (line) => console.log(line),
  });
} catch (error) {
  await sandbox.close();
  throw error;
}

console.log(`sandbox:  ${sandbox.url} (key ${sandbox.apiKey}, merchant ${sandbox.merchantCode})`);
console.log(`sandbox dashboard, in a browser: ${sandbox.url}/`);
console.log('Open the demo shop (Ctrl-C stops both):');
console.log(shop.url);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([shop.close(), sandbox.close()]).then(() => process.exit(0));
  });
}
