/**
 * The `hooks` group: `onPaid`, `onFailed`, and how long they may hold a claim or an answer;
 * `onPageViolation`, told of what goes wrong on the payment pages.
 */
import { group, milliseconds, optionalFunction } from './check.ts';
import type { HookOptions } from './types.ts';

/** A hook's claim holds this long by default. */
const LEASE_MS = 30_000;

export type ResolvedHooks = HookOptions & { leaseMs: number; waitMs: number };

export function resolveHooks(value: HookOptions | undefined): ResolvedHooks {
  const hooks =
    group('hooks', value, [
      'onPaid',
      'onFailed',
      'onPageViolation',
      'leaseMs',
      'waitMs',
      'waitUntil',
    ]) ?? {};
  optionalFunction('hooks.onPaid', hooks.onPaid);
  optionalFunction('hooks.onFailed', hooks.onFailed);
  optionalFunction('hooks.onPageViolation', hooks.onPageViolation);
  optionalFunction('hooks.waitUntil', hooks.waitUntil);
  const leaseMs = milliseconds('hooks.leaseMs', hooks.leaseMs, LEASE_MS, 1);
  const waitMs = milliseconds('hooks.waitMs', hooks.waitMs, 0, 0);
  // Never past the claim's lease: by then the claim may be taken over.
  return { ...hooks, leaseMs, waitMs: Math.min(waitMs, leaseMs) };
}
