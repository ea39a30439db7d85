// The sandbox clock: moving it forward expires a checkout past its valid_until, lapses a
// pairing code, ends a reader's start window and sends a webhook retry that was waiting,
// all without sleeping; dates of what happens next follow it; a reset puts it back.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import {
  checkoutBody,
  expectValid,
  type Harness,
  sandboxAndReceiver,
  startReaderCheckout,
  startSandbox,
  type WebhookReceiver,
} from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let h: Harness;
let hooks: WebhookReceiver;

interface ClockJson {
  now: string;
  offsetMs: number;
}

async function advance(ms: number): Promise<ClockJson> {
  const res = await h.api('POST', '/sandbox/clock', { advanceMs: ms });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as ClockJson;
}

describe('the sandbox clock', () => {
  sandboxAndReceiver({ readers: { pairingDelayMs: 0 } }, (started) => {
    ({ h, hooks } = started);
  });

  test('GET tells the time; POST moves it forward; a reset puts it back', async () => {
    const before = Date.now();
    const start = (await h.api('GET', '/sandbox/clock')).body as ClockJson;
    assert.equal(start.offsetMs, 0);
    assert.ok(Math.abs(Date.parse(start.now) - before) < 60_000);
    const moved = await advance(DAY);
    assert.equal(moved.offsetMs, DAY);
    assert.ok(Date.parse(moved.now) - Date.now() > DAY - 60_000);
    await h.api('POST', '/sandbox/reset');
    assert.equal(((await h.api('GET', '/sandbox/clock')).body as ClockJson).offsetMs, 0);
  });

  test('past valid_until a checkout can no longer be processed; dates follow the clock', async () => {
    const validUntil = new Date(Date.now() + HOUR).toISOString();
    const created = await h.api(
      'POST',
      '/v0.1/checkouts',
      checkoutBody({ valid_until: validUntil }),
    );
    const c = expectValid(CheckoutSchema, created.body);
    const { now } = await advance(HOUR + 1_000);
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')),
      409,
      'CONFLICT',
      'valid_until',
    );
    const later = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    assert.ok(Date.parse(later.date!) >= Date.parse(now), `${later.date} is at or after ${now}`);
    const paid = await h.api('PUT', `/v0.1/checkouts/${later.id}`, cardBody('4200000000000091'));
    const txn = expectValid(CheckoutSchema, paid.body).transactions?.[0];
    assert.ok(Date.parse(txn?.timestamp ?? '') >= Date.parse(now));
  });

  test('a payout is dated by the clock, as is a boleto payment', async () => {
    const { now } = await advance(3 * DAY);
    const day = now.slice(0, 10);
    const boleto = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ currency: 'BRL' }))).body,
    );
    await h.api('PUT', `/v0.1/checkouts/${boleto.id}`, { payment_type: 'boleto' });
    const settled = await h.api('POST', `/sandbox/checkouts/${boleto.id}/settle`);
    const txn = expectValid(CheckoutSchema, settled.body).transactions?.[0];
    assert.equal(txn?.timestamp?.slice(0, 10), day);
    const payouts = await h.api(
      'GET',
      `/v1.0/merchants/MSANDBOX1/payouts?start_date=${day}&end_date=${day}`,
    );
    assert.deepEqual(
      (payouts.body as { type: string; date: string }[]).map((p) => [p.type, p.date]),
      [['PAYOUT', day]],
    );
  });

  test('a pairing code lapses when the clock passes its lifetime', async () => {
    const device = (await h.api('POST', '/sandbox/devices')).body as { pairing_code: string };
    // The default lifetime is five minutes.
    await advance(5 * 60_000);
    h.expectError(
      await h.api('POST', '/v0.1/merchants/MSANDBOX1/readers', {
        pairing_code: device.pairing_code,
      }),
      400,
      'INVALID',
      'pairing_code',
    );
  });

  test("a reader checkout's 60-second start window ends when the clock moves", async () => {
    const { deviceId } = await startReaderCheckout(h, hooks.url);
    await advance(60_000);
    // Nobody reads the checkout: the timer on the clock posts the failed result by itself.
    await hooks.waitFor(1);
    const result = hooks.received[0]?.body as { payload: { status: string } };
    assert.equal(result.payload.status, 'failed');
    const screen = (await h.api('GET', `/sandbox/devices/${deviceId}`)).body as {
      screen: string;
    };
    assert.equal(screen.screen, 'idle');
  });

  test('a webhook retry waiting for its backoff goes out when the clock passes it', async () => {
    const slow = await startSandbox({ webhook: { attempts: 3, initialDelayMs: 10 * 60_000 } });
    try {
      hooks.replies.push(500);
      const created = await slow.api(
        'POST',
        '/v0.1/checkouts',
        checkoutBody({ return_url: hooks.url }),
      );
      const c = expectValid(CheckoutSchema, created.body);
      await slow.api('DELETE', `/v0.1/checkouts/${c.id}`);
      await hooks.waitFor(1);
      // The retry is ten minutes of sandbox time away.
      const res = await slow.api('POST', '/sandbox/clock', { advanceMs: 10 * 60_000 });
      assert.equal(res.status, 200);
      await hooks.waitFor(2);
      assert.deepEqual(hooks.received[1]?.body, {
        event_type: 'CHECKOUT_STATUS_CHANGED',
        id: c.id,
      });
    } finally {
      await slow.sandbox.close();
    }
  });

  test('a data file keeps how far the clock was moved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-clock-'));
    try {
      const dataFile = join(dir, 'state.json');
      const first = await startSandbox({ dataFile });
      await first.api('POST', '/sandbox/clock', { advanceMs: DAY });
      await first.sandbox.close();
      const second = await startSandbox({ dataFile });
      const clock = (await second.api('GET', '/sandbox/clock')).body as ClockJson;
      await second.sandbox.close();
      assert.equal(clock.offsetMs, DAY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bad moves are 400 naming advanceMs; moving the clock needs the key', async () => {
    h.expectError(await h.api('POST', '/sandbox/clock', {}), 400, 'MISSING', 'advanceMs');
    for (const advanceMs of [-1, 1.5, '60000', 400 * 366 * DAY]) {
      h.expectError(
        await h.api('POST', '/sandbox/clock', { advanceMs }),
        400,
        'INVALID',
        'advanceMs',
      );
    }
    h.expectError(
      await h.api('POST', '/sandbox/clock', { advanceMs: 1 }, null),
      401,
      'NOT_AUTHORIZED',
    );
    assert.equal(((await h.api('GET', '/sandbox/clock')).body as ClockJson).offsetMs, 0);
  });
});
