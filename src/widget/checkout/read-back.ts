// After a process request whose answer was lost (no answer, a timeout, a fault on the way
// back), the widget does not guess: it reads the checkout back. A few tries with growing
// waits, about 10 s in all, because the network that lost the answer may still be down.

/** Waits between tries: 0.5 s doubling, 10.5 s in all with the tries themselves. */
const WAITS_MS = [500, 1000, 2000, 4000];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The checkout as the backend reads it now, or undefined when every try failed. Stops at
 * the first answer, final or not: an untouched checkout is the truth too (pay again).
 */
export async function readBack<T>(read: () => Promise<T>): Promise<T | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch {
      const wait = WAITS_MS[attempt];
      if (wait === undefined) return undefined;
      await sleep(wait);
    }
  }
}
