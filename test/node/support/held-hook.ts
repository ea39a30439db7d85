// A merchant hook the test holds open: its first run stays inside until the test calls
// `finish()`, so "while a hook runs" is a state the test controls, not a race with a timer.

export interface HeldHook {
  /** Pass as `onPaid`/`onFailed`. The first call waits for `finish()`; later calls return at once. */
  run: () => Promise<void>;
  /** Resolves once the first call has begun. */
  entered: Promise<void>;
  /** Lets the first call return. */
  finish: () => void;
  /** How many times the hook has been called. */
  readonly calls: number;
}

export function heldHook(): HeldHook {
  let calls = 0;
  let enter = () => {};
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      calls += 1;
      if (calls > 1) return;
      enter();
      await finished;
    },
    entered,
    finish: () => finish(),
    get calls() {
      return calls;
    },
  };
}
