// The long fuzz run behind `npm run fuzz`: the same generators and checks as the
// test/node/fuzz suites, many more requests. FUZZ_RUNS (default 200000, split between the
// handler and the sandbox), FUZZ_SEED (default: random, printed so a failure can be
// replayed), FUZZ_MINUTES (default 30, a bound on the whole run).
//   FUZZ_RUNS=200000 node --import tsx bench/fuzz.ts
import { fuzz, keepFetchOnLoopback, summary } from '../test/node/fuzz/run.ts';
import { handlerTarget, sandboxTarget } from '../test/node/fuzz/targets.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 200_000);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const deadline = Date.now() + Number(process.env.FUZZ_MINUTES ?? 30) * 60_000;
console.log(`fuzz: ${runs} requests, seed ${seed} (replay with FUZZ_SEED=${seed})`);

const network = keepFetchOnLoopback();
let failed = false;
const targets = [handlerTarget, sandboxTarget];
for (const [index, make] of targets.entries()) {
  const target = await make();
  // The time left is shared by the targets still to run.
  const share = targets.length - index;
  try {
    const stats = await fuzz(target, {
      runs: Math.ceil(runs / 2),
      seed,
      timeLimitMs: Math.max(1_000, (deadline - Date.now()) / share),
    });
    console.log(summary(target.name, seed, stats));
  } catch (error) {
    failed = true;
    console.error(error instanceof Error ? error.message : String(error));
  } finally {
    await target.close();
  }
}
network.restore();
if (network.blocked.length > 0) {
  failed = true;
  console.error(`non-loopback fetches attempted: ${network.blocked.join(', ')}`);
}
process.exit(failed ? 1 : 0);
