/**
 * The few checks the store contract makes, with no test library of its own: it runs under
 * whatever runner the caller has (node:test, Vitest, Jest, Mocha, in Node or a browser).
 */

/** A store that broke the contract: says what was asked, what it answered, what was due. */
export class StoreContractError extends Error {
  override name = 'StoreContractError';
}

/** JSON with each object's keys in order, so that `{ a, b }` and `{ b, a }` read the same. */
const show = (value: unknown): string =>
  value === undefined
    ? 'undefined'
    : JSON.stringify(value, (_key, v: unknown) =>
        v !== null && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
          : v,
      );

export function equal(actual: unknown, expected: unknown, what: string): void {
  if (show(actual) !== show(expected)) {
    throw new StoreContractError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

export function ok(condition: boolean, what: string): asserts condition {
  if (!condition) throw new StoreContractError(what);
}

/** Waits `ms`: a lease or a lifetime running out is what the store is tested on. */
export const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Asks again until `check` holds, for at most `ms`: a store may expire a key a moment late. */
export async function eventually(what: string, ms: number, check: () => Promise<boolean>) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new StoreContractError(`${what} within ${ms} ms`);
    await pause(20);
  }
}
