// One engine per run, chosen by ENGINE (chromium, firefox or webkit; Chromium
// when unset): `npm test` runs the three one after another, and
// `ENGINE=webkit npx wtr --files test/browser/widget/typing.test.ts` runs one alone.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { engineFromEnv } from './scripts/browser.mjs';
import { freePort } from './scripts/free-port.mjs';
import { bankPage } from './scripts/wtr-bank-page.mjs';
import { engineCommands, engineSummary, launcherFor } from './scripts/wtr-engines.mjs';
import { flakyPart } from './scripts/wtr-flaky-part.mjs';
import { payPart } from './scripts/wtr-pay-part.mjs';
import { scaled, TIME_SCALE } from './test/shared/time-scale.mjs';

const engine = engineFromEnv();
const bank = bankPage();
const pay = payPart();
const flaky = flakyPart();

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['production'] },
  rootDir: '.',
  // npm test starts the three engines' runners together: each is given a port of its own, where
  // the runner's default (the first free from 8000) let two of them pick the same one.
  port: await freePort(),
  concurrency: 1,
  // Every deadline is for an idle machine, scaled to this one (test/shared/time-scale.mjs);
  // the test pages get the runner's factor, so their own waits scale alike.
  testFramework: { config: { timeout: scaled(10_000) } },
  testRunnerHtml: (testFramework) =>
    `<!doctype html><html><head><script>globalThis.TEST_TIME_SCALE = ${TIME_SCALE};</script></head><body><script type="module" src="${testFramework}"></script></body></html>`,
  browserStartTimeout: scaled(30_000),
  testsStartTimeout: scaled(20_000),
  testsFinishTimeout: scaled(120_000),
  middleware: [bank.middleware, pay.middleware, flaky.middleware],
  plugins: [
    bank.plugin,
    pay.plugin,
    flaky.plugin,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    engineCommands(),
  ],
  browsers: [launcherFor(engine)],
  reporters: [defaultReporter(), engineSummary(engine)],
};
