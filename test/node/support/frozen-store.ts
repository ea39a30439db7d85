// What a store that stops answering with its connections open (a hung machine, a lost network)
// may cost the README's shop, whichever store it is: a new checkout waits one command timeout,
// not one per store call, and once the store answers again the payment's hook runs, once.
import assert from 'node:assert/strict';
import { until } from '../../shared/until.ts';
import { createCheckout, type Harness, request, webhookRequest } from '../server/fixtures.ts';
import { cardBody } from './cards.ts';

/**
 * `h` has a store given `timeoutMs` per command, and its resolveCheckout gives each order a
 * basket reference of its own (as the README's shop: the basket's record read and written);
 * `freeze` stops the store's server, `thaw` lets it go on.
 */
export async function frozenCostsOneTimeout(
  h: Harness,
  timeoutMs: number,
  server: { freeze(): void; thaw(): void },
): Promise<void> {
  await createCheckout(h); // the connections open while the store answers
  server.freeze();
  let elapsed: number;
  let id: string;
  try {
    const started = performance.now();
    ({ id } = await createCheckout(h));
    elapsed = performance.now() - started;
  } finally {
    server.thaw();
  }
  // Each of its store calls (the rate counter, the basket's record read, the watchlist, the
  // record written) waited timeoutMs before.
  assert.ok(elapsed < 2 * timeoutMs, `${Math.round(elapsed)} ms, the timeout ${timeoutMs} ms`);
  // Answering again, the store is asked again: the payment's hook runs, once.
  const paid = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
  );
  assert.equal(((await paid.json()) as { status: string }).status, 'PAID');
  // The hook the PUT starts in the background may meet the store's quiet moment after the thaw
  // (its probe not back yet) and be left to the webhook, which the provider delivers again
  // until it is answered 204.
  await until('onPaid to run', async () => {
    if (h.paid.length === 0) await h.handle(webhookRequest(id));
    return h.paid.length > 0;
  });
  assert.equal((await h.handle(webhookRequest(id))).status, 204);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
}
