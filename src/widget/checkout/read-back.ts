// After a process request whose answer was lost (no answer, a timeout, a fault on the way
// back), the widget does not guess: it reads the checkout back. A few tries with growing
// waits, about 10 s in all, because the network that lost the answer may still be down.
// A network that stalls (a phone out of signal: no answer and no refusal either) would
// hold each try for a read's whole time limit, "Processing…" for a minute and more: the
// tries share one allowance instead, each cut to what is left of it.

/** Waits between tries: 0.5 s doubling, 10.5 s in all with the tries themselves. */
const WAITS_MS = [500, 1000, 2000, 4000];

/** The read-back's whole allowance, its tries and waits included (a test shortens it). */
export const READ_BACK_MS = { total: 12_000 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The checkout as the backend reads it now, or undefined when every try failed (or the
 * allowance ran out). Stops at the first answer, final or not: an untouched checkout is the
 * truth too (pay again). `read` gets the time its try may take; it gives undefined, and the
 * tries stop, once nobody waits for the answer (the widget left the page).
 */
export async function readBack<T>(
  read: (ms: number) => Promise<T> | undefined,
): Promise<T | undefined> {
  const end = Date.now() + READ_BACK_MS.total;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read(end - Date.now());
    } catch {
      const wait = WAITS_MS[attempt];
      if (wait === undefined || Date.now() + wait >= end) return undefined;
      await sleep(wait);
    }
  }
}
