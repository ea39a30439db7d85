// Types for test/node's use of scripts/test-counts.mjs (plain JavaScript, run before any build).

/** What a runner's output says: its counts, and each failed test as `name: why`. */
export interface Counts {
  passed: number | undefined;
  failed: number | undefined;
  skipped: number | undefined;
  todo: number | undefined;
  failures?: string[];
  names?: string[];
}

export const COUNTS: Record<'node' | 'named' | 'wtr' | 'playwright', (out: string) => Counts>;
