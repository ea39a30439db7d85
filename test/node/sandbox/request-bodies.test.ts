// The request log's bodies (GET /sandbox/requests, the dashboard's Requests tab): each JSON
// request's body and its answer's, with the card number cut to its last four digits and no
// security code, whatever field carries them, before the log keeps them; and only for the
// newest requests.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { BODIES_KEPT, type RequestJson } from '../../../src/sandbox/state/request-log.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, type Harness, startSandbox } from './helpers.ts';

const CARD = '4200000000000091';

let h: Harness;

async function requests(): Promise<RequestJson[]> {
  return (await h.api('GET', '/sandbox/requests')).body as RequestJson[];
}

/** Every place a card number or the CVV could show: the list as the dashboard gets it. */
function assertNoCard(list: RequestJson[]): void {
  const text = JSON.stringify(list);
  assert.ok(!text.includes(CARD), 'no whole card number');
  assert.ok(!/4200[ -]?0000[ -]?0000[ -]?0091/.test(text), 'no card number with spaces');
  assert.ok(!/"cvv\\?":\s*\\?"123/.test(text), 'no CVV');
}

describe('request bodies', () => {
  before(async () => {
    h = await startSandbox();
  });
  after(() => h.sandbox.close());
  beforeEach(async () => {
    await h.api('POST', '/sandbox/reset');
  });

  test('a checkout made and paid by card: both bodies shown, the card masked', async () => {
    const made = await h.api('POST', '/v0.1/checkouts', checkoutBody({ description: 'Mug' }));
    assert.equal(made.status, 201);
    const id = (made.body as { id: string }).id;
    const paid = await h.api('PUT', `/v0.1/checkouts/${id}`, cardBody(CARD));
    assert.equal(paid.status, 200);
    const list = await requests();
    const [put, post] = list;
    assert.equal(put?.method, 'PUT');
    const sent = JSON.parse(put?.request_body ?? '{}') as { card: Record<string, string> };
    assert.equal(sent.card.number, '•••• 0091');
    assert.equal(sent.card.cvv, '•••');
    assert.equal(sent.card.name, 'Ada Lovelace');
    assert.equal(sent.card.expiry_month, '12');
    assert.equal((JSON.parse(put?.response_body ?? '{}') as { status: string }).status, 'PAID');
    assert.equal(post?.method, 'POST');
    assert.equal(
      (JSON.parse(post?.request_body ?? '{}') as { description: string }).description,
      'Mug',
    );
    assert.equal((JSON.parse(post?.response_body ?? '{}') as { id: string }).id, id);
    assertNoCard(list);
  });

  test('a card number refused, or in a field of its own, is masked all the same', async () => {
    const made = await h.api('POST', '/v0.1/checkouts', checkoutBody());
    const id = (made.body as { id: string }).id;
    const refused = await h.api('PUT', `/v0.1/checkouts/${id}`, {
      ...cardBody(CARD, { installments: 0 }),
      note: `card 4200 0000 0000 0091, code 123`,
      card_number: CARD,
      security_code: '123',
      pin: '4321',
    });
    assert.equal(refused.status, 400);
    // Not JSON a route could read: nothing of it kept.
    const garbled = await h.api('PUT', `/v0.1/checkouts/${id}`, `{"card":{"number":"${CARD}"`);
    assert.equal(garbled.status, 400);
    const list = await requests();
    assert.equal(list[0]?.request_body, undefined);
    const sent = JSON.parse(list[1]?.request_body ?? '{}') as Record<string, string>;
    assert.equal(sent.note, 'card •••• 0091, code 123');
    assert.equal(sent.card_number, '•••• 0091');
    assert.equal(sent.security_code, '•••');
    assert.equal(sent.pin, '•••');
    assertNoCard(list);
  });

  test('an id whose digits look like a card number is shown as it is', async () => {
    // A UUID whose last group is all digits: one random checkout id in a few hundred.
    const reference = 'ea86c7f8-2dfd-4a1c-b6e6-700610787202';
    const made = await h.api(
      'POST',
      '/v0.1/checkouts',
      checkoutBody({ checkout_reference: reference }),
    );
    assert.equal(made.status, 201);
    const [post] = await requests();
    const sent = JSON.parse(post?.request_body ?? '{}') as { checkout_reference: string };
    assert.equal(sent.checkout_reference, reference);
    const answered = JSON.parse(post?.response_body ?? '{}') as { checkout_reference: string };
    assert.equal(answered.checkout_reference, reference);
  });

  test(`only the newest ${BODIES_KEPT} requests keep their bodies`, async () => {
    await h.api('POST', '/v0.1/checkouts', checkoutBody());
    for (let i = 0; i < BODIES_KEPT; i++) await h.api('GET', '/v0.1/checkouts?limit=1');
    const list = await requests();
    assert.equal(list.length, BODIES_KEPT + 2, 'the reset, the checkout, the reads');
    assert.ok(list.slice(0, BODIES_KEPT).every((r) => r.response_body !== undefined));
    const oldest = list.at(-2);
    assert.equal(oldest?.method, 'POST');
    assert.equal(oldest?.request_body, undefined);
    assert.equal(oldest?.response_body, undefined);
  });
});
