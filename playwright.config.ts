import { defineConfig } from '@playwright/test';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, headlessChromiumPath } from './scripts/browser.mjs';
import { scaled } from './test/shared/time-scale.mjs';

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  // One file at a time by default: npm test runs this suite beside the node suites, which
  // keep the cores busy, and two workers there only added load (a focus test missed its
  // frame's focus under it). PW_WORKERS=2 runs two, each with a sandbox and shop of its own
  // (test/e2e/fixtures.ts), for a run of this suite alone.
  workers: Number(process.env.PW_WORKERS ?? 1),
  retries: 0,
  // What a test and one expectation may take on an idle machine, scaled to this one
  // (test/shared/time-scale.mjs): a busy machine is slower, not broken.
  timeout: scaled(30_000),
  expect: { timeout: scaled(5_000) },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: headlessChromiumPath() as string,
      args: chromiumArgs as string[],
    },
    trace: 'off',
  },
});
