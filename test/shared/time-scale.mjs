// How much longer than on an idle machine a test may wait for something before it calls it
// missing: every deadline in the suites (`until`, the browser tests' waits, mocha's and
// Playwright's timeouts, the engines' flows) is written for an idle machine and multiplied
// by this factor. Plain JavaScript, so the runners' configs (web-test-runner, Playwright),
// Node and the test pages all read the one rule.
//
// TEST_TIME_SCALE (a number, 1 or more) sets it. Unset, it is measured when a runner starts:
// one plus the machine's load per core over the last minute, at most MAX_SCALE. A deadline is
// only ever an upper bound: a test waits for an event, and the factor costs time only when
// the event never comes (a test that is failing anyway).

/** Beyond this, a wait that has not ended is not coming: the test fails rather than hang. */
const MAX_SCALE = 8;

/** The factor, read once: the page's `TEST_TIME_SCALE` global, the variable, or the load. */
function readScale() {
  const given = globalThis.TEST_TIME_SCALE ?? globalThis.process?.env?.TEST_TIME_SCALE;
  if (given !== undefined && given !== '') {
    const scale = Number(given);
    if (!Number.isFinite(scale) || scale < 1) {
      throw new Error(`TEST_TIME_SCALE=${given}: give a number, 1 or more`);
    }
    return scale;
  }
  // Node only (a test page is given the runner's factor as TEST_TIME_SCALE).
  const os = globalThis.process?.getBuiltinModule?.('node:os');
  if (os === undefined) return 1;
  const perCore = os.loadavg()[0] / os.availableParallelism();
  return Math.min(MAX_SCALE, Math.round((1 + perCore) * 10) / 10);
}

/** The factor every deadline is multiplied by. */
export const TIME_SCALE = readScale();

/** `ms` (what would do on an idle machine) scaled to this machine. */
export function scaled(ms) {
  return Math.round(ms * TIME_SCALE);
}
