// Create + retrieve latency of the sandbox over loopback (not a timed test).
// Run: node --import tsx bench/sandbox-latency.ts [pairs]   (default 2000 pairs)
// Goal: p50 of a pair under 5 ms.

import { createSandbox } from '../src/sandbox/index.ts';

const pairs = Number(process.argv[2] ?? 2000);
const warmup = 200;
const sandbox = await createSandbox();
const headers = {
  authorization: `Bearer ${sandbox.apiKey}`,
  'content-type': 'application/json',
};

async function pair(i: number): Promise<number> {
  const started = performance.now();
  const created = await fetch(`${sandbox.url}/v0.1/checkouts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      checkout_reference: `bench-${i}`,
      amount: 10,
      currency: 'EUR',
      merchant_code: sandbox.merchantCode,
    }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  const got = await fetch(`${sandbox.url}/v0.1/checkouts/${id}`, { headers });
  if (got.status !== 200) throw new Error(`retrieve answered ${got.status}`);
  await got.arrayBuffer();
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

try {
  for (let i = 0; i < warmup; i++) await pair(-1 - i);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < pairs; i++) times.push(await pair(i));
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(2);
  console.log(
    `sandbox create+retrieve, ${pairs} sequential pairs over loopback (${warmup} warm-up)`,
  );
  console.log(
    `p50 ${fmt(percentile(times, 50))} ms  p95 ${fmt(percentile(times, 95))} ms  p99 ${fmt(percentile(times, 99))} ms  max ${fmt(times.at(-1)!)} ms`,
  );
  console.log(`throughput ${fmt((pairs / total) * 1000)} pairs/s`);
  if (percentile(times, 50) >= 5) {
    console.log('p50 is above the 5 ms goal');
    process.exitCode = 1;
  }
} finally {
  await sandbox.close();
}
