// Fault injection for the provider routes: add latency, answer an error, or drop the
// connection for the next `times` matching requests. Merchants use it to test retries and
// timeouts; it never applies to the `/sandbox/` control surface itself. The faults are records
// of the store (a restart on the data file keeps them); using one up is a change like any other.

import type { FaultRecord, Frozen, WebhookFaultRecord } from '../state/records.ts';
import type { Store } from '../state/store.ts';
import { matchPattern } from './path-pattern.ts';

function matches(fault: Frozen<FaultRecord>, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method !== method) return false;
  if (fault.path.includes(':') || fault.path.includes('*')) {
    return matchPattern(fault.path, path) !== null;
  }
  return (
    path === fault.path || path.startsWith(fault.path.endsWith('/') ? fault.path : `${fault.path}/`)
  );
}

/** The first fault matching this request, consumed by one use; undefined for most requests. */
export function takeFault(
  store: Store,
  method: string,
  path: string,
): Frozen<FaultRecord> | undefined {
  // The common case, every provider request: no fault at all, one size check.
  if (store.count('faults') === 0) return undefined;
  for (const fault of store.values('faults')) {
    if (!matches(fault, method, path)) continue;
    consume(store, 'faults', fault);
    return fault;
  }
  return undefined;
}

/**
 * The fault for the next webhook delivery, consumed by one use: the oldest fault first
 * (see webhooks.ts for what each kind does).
 */
export function takeWebhookFault(store: Store) {
  const fault = store.values('webhookFaults').next().value;
  if (fault !== undefined) consume(store, 'webhookFaults', fault);
  return fault;
}

/** One use of a fault: it counts down, and is gone after its last. */
function consume(
  store: Store,
  kind: 'faults' | 'webhookFaults',
  fault: Frozen<FaultRecord | WebhookFaultRecord>,
): void {
  if (fault.remaining <= 1) store.remove(kind, fault.id);
  else
    store.update(kind, fault.id, (f) => {
      f.remaining -= 1;
    });
}
