// How `npm test` (scripts/test.mjs) reads each step's counts from what its runner printed.
/**
 * Reads a step's counts from what its runner printed: passed and failed, and the
 * skipped and todo tests, which the summary shows so that none goes unnoticed; and the
 * names of the tests that failed, which the summary lists, so that the end of a CI log says
 * which test to look at.
 */
export const COUNTS = {
  // node's test runner: TAP (`# pass 9`, `not ok 3 - name`) when piped, spec (`ℹ pass 9`,
  // `✖ name (12ms)`) on a terminal. A failed test's enclosing tests fail with it.
  node: (out) => ({
    passed: last(out, /^(?:# |ℹ )pass (\d+)$/gm),
    failed: last(out, /^(?:# |ℹ )fail (\d+)$/gm),
    skipped: last(out, /^(?:# |ℹ )skipped (\d+)$/gm),
    todo: last(out, /^(?:# |ℹ )todo (\d+)$/gm),
    // (The spec reporter's list of failures is headed `✖ failing tests:`.)
    failures: all(
      out,
      /^\s*(?:not ok \d+ - (.+?)(?: # .*)?|✖ (?!failing tests:$)(.+?)(?: \([\d.]+m?s\))?)$/gm,
    ),
  }),
  // The same, plus each top-level test's name and result (TAP's `ok 1 - bun`).
  named: (out) => ({
    ...COUNTS.node(out),
    names: [...out.matchAll(/^(not ok|ok) \d+ - (.+?)(?: # .*)?$/gm)].map(
      ([, result, name]) => `${name} ${result === 'ok' ? 'ok' : 'FAILED'}`,
    ),
  }),
  // web-test-runner, through scripts/wtr-engines.mjs's summary line.
  wtr: (out) => {
    const line = /^browser tests \(\w+\): (\d+) passed, (\d+) failed, (\d+) skipped$/gm;
    return {
      passed: last(out, line),
      failed: last(out, line, 2),
      skipped: last(out, line, 3),
      todo: 0,
      failures: all(out, /^failed: (.+)$/gm),
    };
  },
  playwright: (out) => ({
    passed: last(out, /^\s+(\d+) passed\b/gm),
    failed: last(out, /^\s+(\d+) failed\b/gm) ?? 0,
    skipped: last(out, /^\s+(\d+) skipped\b/gm) ?? 0,
    todo: 0,
    // Each failure's heading: `  1) test/e2e/a.spec.ts:31:3 › title ───`.
    failures: all(out, /^\s+\d+\) (\S+\.spec\.ts:\d+:\d+ › .+?)[\s─]*$/gm),
  }),
};

/** Every distinct match of `pattern`'s first group that matched. */
function all(text, pattern) {
  const names = [...text.matchAll(pattern)].map((match) => match.slice(1).find(Boolean));
  return [...new Set(names.filter(Boolean))];
}

function last(text, pattern, group = 1) {
  const all = [...text.matchAll(pattern)];
  return all.length > 0 ? Number(all[all.length - 1][group]) : undefined;
}
