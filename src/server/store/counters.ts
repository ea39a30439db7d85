/**
 * Fixed-window request counters in this process's memory: the memory store's, and the rate
 * limits' stand-in while a shared store cannot be reached.
 */
import type { Counter, CounterState } from './types.ts';

/** At most this many live counters per window length; past it the oldest window goes first. */
const MAX_COUNTERS = 100_000;

/**
 * Fixed-window counters in memory. One Map per window length: a window starts at its first
 * hit and lasts as long as the others in that Map, so each Map (which iterates in insertion
 * order, a new window re-inserted) is in order of expiry and sweeping stops at the first live
 * counter. Capped, so a flood of new keys (addresses, checkout ids) cannot grow it without end.
 */
export function createMemoryCounters(): (counters: readonly Counter[]) => CounterState[] {
  const byWindow = new Map<number, Map<string, { hits: number; endsAt: number }>>();
  return (counters) => {
    const now = Date.now();
    return counters.map(({ key, windowMs }) => {
      let windows = byWindow.get(windowMs);
      if (windows === undefined) {
        windows = new Map();
        byWindow.set(windowMs, windows);
      }
      for (const [old, window] of windows) {
        if (window.endsAt > now && windows.size < MAX_COUNTERS) break;
        windows.delete(old);
      }
      let window = windows.get(key);
      if (window === undefined) {
        window = { hits: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.hits += 1;
      return { hits: window.hits, resetInMs: window.endsAt - now };
    });
  };
}
