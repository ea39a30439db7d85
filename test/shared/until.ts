// Waiting for something a test can observe (a log line, a hook call, a reported problem, a
// state in the sandbox) instead of sleeping for a guessed time: on a loaded machine a guess
// is too short, and everywhere else it is too long. Use an event or a promise when there is
// one; `until` is for what can only be looked at. `sleep` is only for waiting out a lease or a
// TTL the test set itself. To show that something did NOT happen, wait for the event that
// would have caused it (the answer sent, the webhook delivered, the clock moved), then look.
import { scaled } from './time-scale.mjs';

export { scaled, TIME_SCALE } from './time-scale.mjs';

/** How often `until` looks again: polling a condition, not a guess at how long it takes. */
const POLL_MS = 10;

/** What `until` allows on an idle machine when the caller names no deadline. */
export const UNTIL_MS = 5_000;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves as soon as `condition` holds, checked at once and then every POLL_MS; rejects
 * naming `what` once `timeoutMs` (what an idle machine needs, scaled to this one by
 * TEST_TIME_SCALE: time-scale.mjs) has passed without it. `what` may be a function, to say
 * at that moment what was seen instead (it is only called on a timeout). A condition that
 * throws or rejects fails the wait with that error.
 */
export async function until(
  what: string | (() => string),
  condition: () => boolean | Promise<boolean>,
  timeoutMs = UNTIL_MS,
): Promise<void> {
  const allowed = scaled(timeoutMs);
  const deadline = Date.now() + allowed;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      const described = typeof what === 'string' ? what : what();
      throw new Error(`timed out after ${allowed} ms waiting for ${described}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * `promise` (an event the test waits for), or a rejection naming `what` once `timeoutMs` (an
 * idle machine's, scaled like `until`'s) has passed without it.
 */
export function within<T>(what: string, promise: Promise<T>, timeoutMs = UNTIL_MS): Promise<T> {
  const allowed = scaled(timeoutMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${allowed} ms waiting for ${what}`)),
      allowed,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
