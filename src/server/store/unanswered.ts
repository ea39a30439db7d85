/**
 * A store that stops answering with its connections open (a frozen machine, a lost network)
 * costs one command its timeout; then the next ones fail at once instead of each waiting as
 * long, until a probe comes back or the timeout has passed again. A request makes several
 * store calls: with the store frozen, a new checkout waited four timeouts before, 20 s on
 * PostgreSQL (past the widget's 15 s) and 8 s on Redis. A command that only waited on a lock
 * (a hook's long transaction) leaves the store answering: the probe comes back at once, and
 * nothing else fails.
 */
export interface Unanswered {
  /** Throws while a command went unanswered a moment ago; `what` names the one not sent. */
  check(what: string): void;
  /**
   * A command went unanswered for the timeout: the next fail at once until `probe` (a command
   * of its own to the same server, sent past `check`) comes back.
   */
  timedOut(probe: () => Promise<unknown>): void;
}

/** For the store called `store` in its errors ("PostgreSQL", "Redis"). */
export function unanswered(store: string, timeoutMs: number): Unanswered {
  let quietUntil = 0;
  let probing = false;
  return {
    check(what) {
      if (Date.now() < quietUntil) {
        throw new Error(
          `${store} did not answer within ${timeoutMs} ms a moment ago; ${what}: not sent until it answers`,
        );
      }
    },
    timedOut(probe) {
      quietUntil = Date.now() + timeoutMs;
      if (probing) return;
      probing = true;
      // A probe the frozen server never answers leaves the quiet to end with its time.
      let sent: Promise<unknown>;
      try {
        sent = probe();
      } catch {
        probing = false;
        return;
      }
      sent
        .then(
          () => {
            quietUntil = 0;
          },
          () => undefined,
        )
        .finally(() => {
          probing = false;
        });
    },
  };
}
