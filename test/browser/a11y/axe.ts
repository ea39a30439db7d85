// axe-core run directly, for the checks `expect(el).to.be.accessible()` cannot
// make: one rule alone (color-contrast), and proof that it looked at something.
import type { AxeResults, RunOptions } from 'axe-core';

interface Axe {
  run(context: Element, options: RunOptions): Promise<AxeResults>;
}

export async function runAxe(element: Element, options: RunOptions = {}): Promise<AxeResults> {
  // axe.min.js is a UMD file that registers itself on window when imported as a module.
  await import('axe-core/axe.min.js' as string);
  const axe = (window as unknown as { axe?: Axe }).axe;
  if (!axe) throw new Error('axe-core did not load');
  return axe.run(element, options);
}

/** One line per violation: rule, and which nodes with axe's own summary. */
export function describeViolations(results: AxeResults): string[] {
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary ?? ''}`.trim()),
  );
}
