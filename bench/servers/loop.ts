// The in-process children's side of ../in-process.ts: one JSON line when ready, then for each
// `run N` on stdin, N calls one after the other and one JSON line with the CPU µs and wall µs
// per call. Exits when stdin closes, after `close`.
import { createInterface } from 'node:readline';

/** Serves `run N` with `call`, which answers one request and consumes its body. */
export function serveLoop(call: () => Promise<void>, close: () => Promise<void> = async () => {}) {
  async function run(count: number): Promise<{ cpuUs: number; wallUs: number }> {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < count; i += 1) await call();
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
    void close().then(() => process.exit(0));
  });
}
