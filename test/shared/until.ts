// Waiting for something a test can observe (a log line, a hook call, a reported problem, a
// state in the sandbox) instead of sleeping for a guessed time: on a loaded machine a guess
// is too short, and everywhere else it is too long. Use an event or a promise when there is
// one; `until` is for what can only be looked at. `sleep` is for the rest: waiting out a
// lease or a TTL, or giving something time to happen to show that it does not.

/** How often `until` looks again: polling a condition, not a guess at how long it takes. */
const POLL_MS = 10;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves as soon as `condition` holds, checked at once and then every POLL_MS; rejects
 * naming `what` once `timeoutMs` has passed without it. `what` may be a function, to say
 * at that moment what was seen instead (it is only called on a timeout). A condition that
 * throws or rejects fails the wait with that error.
 */
export async function until(
  what: string | (() => string),
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 8_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      const described = typeof what === 'string' ? what : what();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${described}`);
    }
    await sleep(POLL_MS);
  }
}
