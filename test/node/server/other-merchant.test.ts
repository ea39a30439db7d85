// A provider key that reads the checkouts of several merchants (a platform's) reads another
// merchant's too: one paid there, for a cent, with a reference that names this shop's order,
// and then named here (a webhook anyone can post, the return page, a poll) must not run this
// shop's onPaid or onFailed, which would ship the order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { makeHandler, paidAtProvider, request, startSandbox, webhookRequest } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

test('a checkout of another merchant, paid or failed, runs no hook here, and the log says whose it is', async () => {
  // The sandbox's merchant makes and settles the checkouts; this shop is another merchant
  // whose handler reads them with the same key.
  const theirs = makeHandler(sb);
  const paid = (await paidAtProvider(sb, theirs)).id;
  const failed = (await paidAtProvider(sb, theirs, { sku: 'declined' })).id;
  const shop = makeHandler(sb, { provider: { merchantCode: 'MSHOP0002' } });
  const answers = await Promise.all([
    shop.handle(webhookRequest(paid)),
    shop.handle(request('GET', `/return?checkout_id=${paid}`, { origin: null })),
    shop.handle(request('GET', `/checkouts/${paid}`)),
    shop.handle(webhookRequest(failed)),
  ]);
  for (const answer of answers) assert.ok(answer.status < 500, String(answer.status));
  assert.equal(shop.paid.length, 0);
  assert.equal(shop.failed.length, 0);
  const warned = shop.logs.filter((line) => line.includes(`merchant ${sb.merchantCode}'s`));
  assert.ok(warned.some((line) => line.includes(paid) && line.includes('onPaid did not run')));
  assert.ok(warned.some((line) => line.includes(failed) && line.includes('onFailed did not run')));
  // Its own merchant's handler runs them, once each.
  await theirs.handle(webhookRequest(paid));
  await theirs.handle(webhookRequest(failed));
  assert.deepEqual(
    [theirs.paid.map((c) => c.id), theirs.failed.map((c) => c.id)],
    [[paid], [failed]],
  );
});
