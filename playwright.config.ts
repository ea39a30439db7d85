import { defineConfig } from '@playwright/test';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, chromiumPath } from './scripts/browser.mjs';
import { scaled } from './test/shared/time-scale.mjs';

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  // Two files at a time: each worker pays through a sandbox and shop of its own
  // (test/e2e/fixtures.ts), and much of a flow is waiting (the widget's polls, the sandbox's
  // webhooks), which the other worker fills. PW_WORKERS=1 runs one file at a time.
  workers: Number(process.env.PW_WORKERS ?? 2),
  retries: 0,
  // What a test and one expectation may take on an idle machine, scaled to this one
  // (test/shared/time-scale.mjs): a busy machine is slower, not broken.
  timeout: scaled(30_000),
  expect: { timeout: scaled(5_000) },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath() as string, args: chromiumArgs as string[] },
    trace: 'off',
  },
});
