/**
 * The dashboard's Requests tab on the static site: the handler's card payment to the sandbox
 * (the PUT that carries the card) shows its body, with the card number cut to its last four
 * digits and no security code, and its answer's body; no whole test card number anywhere on
 * the tab or in what it reads.
 */
import assert from 'node:assert/strict';
import { TEST_CARDS } from '../../site/test-cards.ts';
import { type Driver, TEXT, waitFor } from '../engines/driver.ts';
import { provider } from './visitor.ts';

interface Logged {
  method: string;
  path: string;
  request_id: string;
  request_body?: string;
  response_body?: string;
}

/** On the dashboard (after a card payment): the newest card payment's bodies, masked, opened. */
export async function requestBodiesShown(driver: Driver): Promise<void> {
  const log = await provider<Logged[]>(driver, '/sandbox/requests');
  const put = log.find((r) => r.method === 'PUT' && r.request_body?.includes('"card"'));
  assert.ok(put?.response_body, `a card payment among ${log.length} requests, with its answer`);
  for (const card of TEST_CARDS) {
    assert.ok(!JSON.stringify(log).includes(card), `${card} is not in the request log`);
  }
  await driver.click(/^Requests/);
  await driver.click(`Request body of request ${put.request_id}`);
  const shown = await waitFor('the request body', async () => {
    const text = await driver.run<string>(TEXT);
    return /"number": "•••• \d{4}"/.test(text) ? text : undefined;
  });
  assert.match(shown, /"cvv": "•••"/);
  const four = /"number": "•••• (\d{4})"/.exec(shown)?.[1];
  assert.ok(
    TEST_CARDS.some((card) => card.endsWith(four ?? '-')),
    `${four}: a test card's last four`,
  );
  for (const card of TEST_CARDS) assert.ok(!shown.includes(card), `${card} is not shown`);
  await driver.click(`Response body of request ${put.request_id}`);
  await waitFor('the response body', async () =>
    // Paid at once, or a 3-D Secure challenge to open.
    /"status": "PAID"|"next_step": \{/.test(await driver.run<string>(TEXT)),
  );
}
