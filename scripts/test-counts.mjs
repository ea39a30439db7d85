// How `npm test` (scripts/test.mjs) reads each step's counts from what its runner printed.
/**
 * Reads a step's counts from what its runner printed: passed and failed, and the
 * skipped and todo tests, which the summary shows so that none goes unnoticed; and the
 * tests that failed, each named with the first line of its error (`name: why`), which the
 * summary lists, so that the end of a CI log, which may be all that is kept of it, says which
 * test to look at and what it saw.
 */
export const COUNTS = {
  // node's test runner: TAP (`# pass 9`, `not ok 3 - name`) when piped, spec (`ℹ pass 9`,
  // `✖ name (12ms)`) on a terminal. A failed test's enclosing tests fail with it.
  node: (out) => ({
    passed: last(out, /^(?:# |ℹ )pass (\d+)$/gm),
    failed: last(out, /^(?:# |ℹ )fail (\d+)$/gm),
    skipped: last(out, /^(?:# |ℹ )skipped (\d+)$/gm),
    todo: last(out, /^(?:# |ℹ )todo (\d+)$/gm),
    failures: nodeFailures(out),
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
      // scripts/wtr-engines.mjs prints each as `failed: file › suite › test: why`.
      failures: all(out, /^failed: (.+)$/gm),
    };
  },
  playwright: (out) => ({
    passed: last(out, /^\s+(\d+) passed\b/gm),
    failed: last(out, /^\s+(\d+) failed\b/gm) ?? 0,
    skipped: last(out, /^\s+(\d+) skipped\b/gm) ?? 0,
    todo: 0,
    // Each failure's heading, `  1) test/e2e/a.spec.ts:31:3 › title ───`, then its error's
    // first line (`Error: expect(locator).toHaveText(expected) failed`).
    failures: all(
      out,
      /^\s+\d+\) (\S+\.spec\.ts:\d+:\d+ › .+?)[\s─]*\n(?:\s*\n)*\s*(.*)$/gm,
      ([, name, why]) => because(name, why),
    ),
  }),
};

/**
 * node's test runner's failures, each with what its error says first. TAP (when piped): a
 * `not ok 3 - name` line, then a YAML block whose `error:` is quoted on its line or follows
 * it (`error: |-`). Spec (on a terminal, and Node 24's choice when piped to tsx's runs): the
 * list headed `✖ failing tests:`, each `✖ name (12ms)` followed by its error and stack. A test
 * that failed only because a subtest did (`1 subtest failed`) is left out: the subtest is named.
 */
function nodeFailures(out) {
  const failures = [];
  const lines = out.split('\n');
  let inList = false;
  for (const [i, line] of lines.entries()) {
    if (line === '✖ failing tests:') {
      inList = true;
      continue;
    }
    const tap = /^\s*not ok \d+ - (.+?)(?: # .*)?$/.exec(line);
    const spec = inList && /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    if (tap) failures.push([tap[1], tapError(lines, i + 1)]);
    else if (spec) failures.push([spec[1], firstLines(indentedBelow(lines, i))]);
  }
  return [
    ...new Set(
      failures
        .filter(([, why]) => !/^'?\d+ subtests? failed'?$/.test(why))
        .map(([name, why]) => because(name, why)),
    ),
  ];
}

/** The `error:` of the TAP YAML block that starts at `from`, or '' when there is none. */
function tapError(lines, from) {
  if (lines[from]?.trim() !== '---') return '';
  for (let i = from + 1; i < lines.length && lines[i].trim() !== '...'; i += 1) {
    const error = /^\s*error: (.*)$/.exec(lines[i]);
    if (!error) continue;
    if (!/^[|>]/.test(error[1])) return error[1].replace(/^'(.*)'$/, '$1');
    return firstLines(indentedBelow(lines, i));
  }
  return '';
}

/** The lines after line `at` that are indented deeper than it. */
function indentedBelow(lines, at) {
  const depth = (line) => line.length - line.trimStart().length;
  const below = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() !== '' && depth(line) <= depth(lines[at])) break;
    below.push(line);
  }
  return below;
}

/** An error's first six lines of text, on one line (its stack left out). */
export function firstLines(lines) {
  const text = lines.map((line) => line.trim()).filter(Boolean);
  const stack = text.findIndex((line) => line.startsWith('at '));
  return text.slice(0, Math.min(6, stack === -1 ? 6 : stack)).join(' ');
}

/** `name: why`, or the name alone when the error said nothing. */
function because(name, why) {
  return why === '' ? name : `${name}: ${why}`;
}

/** Every distinct match of `pattern`: its first group that matched, or what `pick` makes of it. */
function all(text, pattern, pick = (match) => match.slice(1).find(Boolean)) {
  const names = [...text.matchAll(pattern)].map(pick);
  return [...new Set(names.filter(Boolean))];
}

function last(text, pattern, group = 1) {
  const all = [...text.matchAll(pattern)];
  return all.length > 0 ? Number(all[all.length - 1][group]) : undefined;
}
