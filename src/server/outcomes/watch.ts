/**
 * Starts watching a checkout for reconciliation, as every route that creates or pays one
 * does. The store may be away: that must not fail the payment, since reconciliation also
 * reads the provider's own records.
 */
import type { Logger } from '../types.ts';
import type { OpenCheckouts } from './reconcile.ts';

export async function watchCheckout(
  deps: { open: Pick<OpenCheckouts, 'track'>; log: Logger },
  id: string,
  soon: boolean,
): Promise<void> {
  try {
    await deps.open.track(id, soon);
  } catch (error) {
    deps.log({
      level: 'warn',
      message: `reconcile: could not track checkout ${id}: ${String(error)}`,
      checkoutId: id,
    });
  }
}
