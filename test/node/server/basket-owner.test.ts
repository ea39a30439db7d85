// "Try another card" acts only for the basket's own shopper. A result page's link
// (`/result?checkout_id=`) travels in history, Referer headers and analytics; whoever opens
// it gets the button, and `POST /checkouts/:id/retry` used to make (or answer) the next
// checkout of the link's basket for anyone: a stranger then held the owner's open checkout,
// could leave a 3DS challenge on it that the owner's page resumed, or fail it. The merchant
// says who the basket's shopper is (`authorizeBasket`), as it does for customers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient } from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { makeHandler, request, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** The basket a request's cookie names, as the README's shop keeps it. */
const basketOf = (r: Request) => /basket=([\w-]+)/.exec(r.headers.get('cookie') ?? '')?.[1];

function call(method: string, path: string, basket: string, body?: unknown): Request {
  const r = request(method, path, body === undefined ? {} : { body });
  r.headers.set('cookie', `basket=${basket}`);
  return r;
}

test("a stranger's retry of someone else's failed checkout is 403 naming id; the owner's makes the next", async () => {
  const h = makeHandler(sb, {
    resolveCheckout: (_order, r) => ({
      amount: 11,
      currency: 'EUR',
      reference: `o-${basketOf(r)}`,
    }),
    authorizeBasket: (r, reference) => reference === `o-${basketOf(r)}`,
  });
  const owner = `owner-${process.pid}`;
  const made = await h.handle(call('POST', '/checkouts', owner, { order: {} }));
  const { id } = (await made.json()) as { id: string };
  // 11.00 is declined, whatever the card.
  const failed = await h.handle(
    call('PUT', `/checkouts/${id}`, owner, cardBody('4200000000000091')),
  );
  assert.equal(((await failed.json()) as { status: string }).status, 'FAILED');

  const stranger = await h.handle(
    call('POST', `/checkouts/${id}/retry`, `stranger-${process.pid}`),
  );
  assert.equal(stranger.status, 403);
  const { error } = (await stranger.json()) as { error: { code: string; field: string } };
  assert.deepEqual([error.code, error.field], ['FORBIDDEN', 'id']);
  // Nothing was made for the owner's basket.
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  assert.deepEqual(await provider.checkouts.list({ checkout_reference: `o-${owner}~2` }), []);

  const mine = await h.handle(call('POST', `/checkouts/${id}/retry`, owner));
  assert.equal(mine.status, 201);
  assert.equal(
    ((await mine.json()) as { checkout_reference: string }).checkout_reference,
    `o-${owner}~2`,
  );
});
