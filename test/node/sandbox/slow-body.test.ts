// A write whose body is still arriving when the record it names goes away (a reset, or a
// delete from another client) answers 404 and changes nothing: no 500, and never half a
// payment (a transaction left behind for a checkout that no longer exists).

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, type Harness, startSandbox } from './helpers.ts';

let h: Harness;
describe('a body still arriving when its record goes away', () => {
  before(async () => {
    h = await startSandbox();
  });
  after(() => h.sandbox.close());
  beforeEach(async () => {
    await h.api('POST', '/sandbox/reset');
  });

  /**
   * Calls `method path` in process with a JSON body that arrives only once `meanwhile` has run,
   * and runs `meanwhile` once the handler has started reading that body (it has looked up what
   * it could before). Resolves with the answer's status and body.
   */
  async function whileTheBodyArrives(
    method: string,
    path: string,
    body: unknown,
    meanwhile: () => Promise<unknown>,
  ): Promise<{ status: number; body: unknown }> {
    let reading!: () => void;
    const started = new Promise<void>((resolve) => {
      reading = resolve;
    });
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          reading();
          await arrived;
          controller.enqueue(bytes);
          controller.close();
        },
        // Pulled only when read: not on construction.
      },
      { highWaterMark: 0 },
    );
    const answer = h.sandbox.handle(
      new Request(`${h.sandbox.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${h.sandbox.apiKey}`,
          'content-type': 'application/json',
          // Announced, as a client's socket does: a body of unknown length is read whole first.
          'content-length': String(bytes.byteLength),
        },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    await started;
    await meanwhile();
    arrive();
    const res = await answer;
    return { status: res.status, body: await res.json() };
  }

  test('a card payment whose checkout is reset away mid-body: 404, and no transaction kept', async () => {
    const { id } = (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body as { id: string };
    const answer = await whileTheBodyArrives(
      'PUT',
      `/v0.1/checkouts/${id}`,
      cardBody('4200000000000091'),
      () => h.api('POST', '/sandbox/reset'),
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    const history = await h.api(
      'GET',
      `/v2.1/merchants/${h.sandbox.merchantCode}/transactions/history`,
    );
    assert.deepEqual((history.body as { items: unknown[] }).items, []);
  });

  test("a customer's update whose customer is reset away mid-body: 404", async () => {
    await h.api('POST', '/v0.1/customers', { customer_id: 'cus-1' });
    const answer = await whileTheBodyArrives(
      'PUT',
      '/v0.1/customers/cus-1',
      { personal_details: { first_name: 'Ada' } },
      () => h.api('POST', '/sandbox/reset'),
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
  });
});
