// One engine per run, chosen by ENGINE (chromium, firefox or webkit; Chromium
// when unset): `npm test` runs the three one after another, and
// `ENGINE=webkit npx wtr --files test/browser/widget/typing.test.ts` runs one alone.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { engineFromEnv } from './scripts/browser.mjs';
import { engineCommands, engineSummary, launcherFor } from './scripts/wtr-engines.mjs';

const engine = engineFromEnv();

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['production'] },
  rootDir: '.',
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    engineCommands(),
  ],
  browsers: [launcherFor(engine)],
  reporters: [defaultReporter(), engineSummary(engine)],
};
