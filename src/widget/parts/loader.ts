// How the sources and the package's ES entry call a loader of a file the widget loads on
// demand (a part, a language): a function of a table, `() => import('./pay.ts')`, which the
// merchant's bundler turns into its own code that adds the file's <script>. webpack's and
// Rspack's throws when Trusted Types refuse that <script> (a page without their
// `output.trustedTypes`); it has already marked the file as loading, and would answer every
// later import() of it with a promise that never settles. The self-contained builds load
// their files themselves (./checked-import.ts) and never call this.

/**
 * A loader threw: no import() of its file can work on this page, now or after a retry. Its
 * message names the browser's reason and the setting that lets the bundler load the file.
 */
export class Refused extends Error {}

/**
 * `table[key]()`, or a rejection, never a throw and never a wait without end: a loader that
 * throws is not asked again, its place in the table fails as it failed at first.
 */
export function importFrom<M, K extends keyof M>(
  table: { [P in keyof M]: () => Promise<M[P]> },
  key: K,
): Promise<M[K]> {
  return new Promise((resolve) => {
    try {
      resolve(table[key]());
    } catch (thrown) {
      const error = new Refused(
        `${thrown}; webpack and Rspack need output.trustedTypes, its policy allowed`,
      );
      table[key] = (): Promise<never> => Promise.reject(error);
      throw error;
    }
  });
}
