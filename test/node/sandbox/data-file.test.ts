// `--data FILE` keeps what the sandbox answered: the real CLI is killed with SIGKILL right after
// answered writes (checkout creates, payments, refunds, reader pairings, webhook deliveries and
// replays), restarted on the same file, and every answered write is found again, in several
// rounds with the kill at a different point each time and other writes still in flight. Also:
// a torn last line is skipped with a warning, a whole last line without its line end is kept,
// a corrupt line elsewhere stops the start, a file written before the journal still reads, a
// start and stop with nothing written leave the file alone, and `--fsync` takes only its three
// values.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';
import { type CliProcess, crash, runCli, startCli } from './cli-process.ts';
import { checkoutBody, startWebhookReceiver, type WebhookReceiver } from './helpers.ts';

const KEY = 'sk_test_sandbox';
const MERCHANT = 'MSANDBOX1';

let dir: string;
let receiver: WebhookReceiver;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-data-file-'));
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as never };
}

type Check = (url: string) => Promise<void>;

/**
 * Writes of every kind, several at once, until `killAt` of them have been answered: then the
 * process is killed at once, with the others still in flight. Returns, for each answered
 * write, a check that it is still there.
 */
async function writeUntilKilled(
  url: string,
  cli: CliProcess,
  killAt: number,
  deliveries: string[],
): Promise<Check[]> {
  const checks: Check[] = [];
  let killed = false;
  /**
   * Records an answered write; the kill comes right after the one that reaches `killAt`. An
   * answer that still arrives after the signal was sent was answered too, so it counts.
   */
  const answered = (check: Check) => {
    checks.push(check);
    if (!killed && checks.length >= killAt) {
      killed = true;
      cli.child.kill('SIGKILL');
    }
  };

  const paymentChain = async () => {
    const created = await call(url, 'POST', '/v0.1/checkouts', {
      ...checkoutBody(),
      return_url: receiver.url,
    });
    assert.equal(created.status, 201);
    const checkoutId = (created.body as { id: string }).id;
    answered(async (u) =>
      assert.equal((await call(u, 'GET', `/v0.1/checkouts/${checkoutId}`)).status, 200),
    );
    const paid = await call(
      url,
      'PUT',
      `/v0.1/checkouts/${checkoutId}`,
      cardBody('4200000000000091'),
    );
    assert.equal(paid.status, 200);
    const txnId = (paid.body as { transaction_id: string }).transaction_id;
    answered(async (u) => {
      const got = await call(u, 'GET', `/v0.1/checkouts/${checkoutId}`);
      assert.equal((got.body as { status: string }).status, 'PAID', checkoutId);
      // The status change queued its webhook delivery in the same write.
      const list = (await call(u, 'GET', '/sandbox/webhook-deliveries')).body as {
        payload: { id?: string };
      }[];
      assert.ok(
        list.some((d) => d.payload.id === checkoutId),
        `a delivery for ${checkoutId}`,
      );
    });
    const refunded = await call(url, 'POST', `/v0.1/me/refund/${txnId}`, { amount: 4 });
    assert.equal(refunded.status, 204);
    answered(async (u) => {
      const txn = await call(u, 'GET', `/v2.1/merchants/${MERCHANT}/transactions?id=${txnId}`);
      const events = (txn.body as { events: { type: string; amount: number }[] }).events;
      assert.deepEqual(
        events.map((e) => [e.type, e.amount]),
        [['REFUND', 4]],
        txnId,
      );
    });
  };

  const pairingChain = async () => {
    const device = await call(url, 'POST', '/sandbox/devices', {});
    assert.equal(device.status, 201);
    const { identifier, pairing_code } = device.body as {
      identifier: string;
      pairing_code: string;
    };
    answered(async (u) =>
      assert.equal((await call(u, 'GET', `/sandbox/devices/${identifier}`)).status, 200),
    );
    const reader = await call(url, 'POST', `/v0.1/merchants/${MERCHANT}/readers`, { pairing_code });
    assert.equal(reader.status, 201);
    const readerId = (reader.body as { id: string }).id;
    answered(async (u) => {
      const got = await call(u, 'GET', `/v0.1/merchants/${MERCHANT}/readers/${readerId}`);
      assert.equal(got.status, 200, readerId);
      assert.equal((got.body as { device: { identifier: string } }).device.identifier, identifier);
    });
  };

  const replayChain = async () => {
    const original = deliveries[deliveries.length - 1];
    if (original === undefined) return;
    const replay = await call(url, 'POST', `/sandbox/webhook-deliveries/${original}/replay`);
    assert.equal(replay.status, 202);
    const id = (replay.body as { id: string }).id;
    answered(async (u) => {
      const list = (await call(u, 'GET', '/sandbox/webhook-deliveries')).body as {
        id: string;
        replay_of?: string;
      }[];
      assert.equal(list.find((d) => d.id === id)?.replay_of, original, id);
    });
  };

  const chains = [paymentChain, pairingChain, paymentChain, replayChain];
  const worker = async (offset: number) => {
    for (let i = offset; !killed; i += 1) {
      try {
        await chains[i % chains.length]!();
      } catch (error) {
        // Once the process is gone, requests in flight fail: that is the point of the test.
        if (killed) return;
        throw error;
      }
    }
  };
  await Promise.all([worker(0), worker(1), worker(2)]);
  await cli.exited;
  return checks;
}

describe('--data after kill -9', () => {
  test('every answered write is there after a restart, whatever the kill interrupted', async () => {
    const dataFile = join(dir, 'crash.jsonl');
    const checks: Check[] = [];
    const deliveries: string[] = [];
    // A different point in each round; writes of every round pile up in the same file.
    for (const killAt of [3, 8, 14, 23]) {
      const { cli, url } = await startCli(['--data', dataFile]);
      // First, everything the earlier rounds were answered is still there.
      for (const check of checks) await check(url);
      const list = (await call(url, 'GET', '/sandbox/webhook-deliveries')).body as { id: string }[];
      deliveries.push(...list.map((d) => d.id));
      checks.push(...(await writeUntilKilled(url, cli, killAt, deliveries)));
    }
    const { cli, url } = await startCli(['--data', dataFile]);
    try {
      for (const check of checks) await check(url);
      assert.ok(checks.length >= 3 + 8 + 14 + 23, `${checks.length} answered writes checked`);
    } finally {
      await crash(cli);
    }
  });

  test('--fsync always and no keep answered writes through kill -9 too', async () => {
    for (const fsync of ['always', 'no']) {
      const dataFile = join(dir, `fsync-${fsync}.jsonl`);
      const first = await startCli(['--data', dataFile, '--fsync', fsync]);
      assert.match(first.cli.output(), new RegExp(`fsync ${fsync}`));
      const created = await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
      assert.equal(created.status, 201);
      await crash(first.cli);
      const second = await startCli(['--data', dataFile, '--fsync', fsync]);
      try {
        const id = (created.body as { id: string }).id;
        assert.equal((await call(second.url, 'GET', `/v0.1/checkouts/${id}`)).status, 200);
      } finally {
        await crash(second.cli);
      }
    }
  });

  test('a bad --fsync stops the CLI with a message naming the flag; the option is checked too', async () => {
    const cli = runCli(['--port', '0', '--data', join(dir, 'never.jsonl'), '--fsync', 'sometimes']);
    assert.equal(await cli.exited, 2);
    assert.match(cli.output(), /--fsync must be always, everysec, no/);
    assert.match(cli.output(), /Usage: payment-sandbox/);
    await assert.rejects(
      // @ts-expect-error: the value a JavaScript caller might pass
      createSandbox({ dataFile: join(dir, 'never.jsonl'), fsync: 'sometimes' }),
      /fsync must be always, everysec or no/,
    );
  });
});

describe('reading a data file', () => {
  test('a torn last line is skipped with a warning; the sandbox starts and appends after it', async () => {
    const dataFile = join(dir, 'torn.jsonl');
    const first = await startCli(['--data', dataFile]);
    const kept = await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
    await crash(first.cli);
    // What a crash in the middle of a write leaves: the start of a line, no line end.
    writeFileSync(dataFile, `${readFileSync(dataFile, 'utf8')}[{"op":"put","kind":"checko`);

    const second = await startCli(['--data', dataFile]);
    try {
      assert.match(second.cli.output(), /torn\.jsonl line 3 was cut short .*; skipped/);
      const id = (kept.body as { id: string }).id;
      assert.equal((await call(second.url, 'GET', `/v0.1/checkouts/${id}`)).status, 200);
      const later = await call(second.url, 'POST', '/v0.1/checkouts', checkoutBody());
      assert.equal(later.status, 201);
      await crash(second.cli);
      // The torn tail was cut off, so the new line did not glue onto it.
      const third = await startCli(['--data', dataFile]);
      try {
        assert.doesNotMatch(third.cli.output(), /cut short/);
        const laterId = (later.body as { id: string }).id;
        assert.equal((await call(third.url, 'GET', `/v0.1/checkouts/${laterId}`)).status, 200);
      } finally {
        await crash(third.cli);
      }
    } finally {
      second.cli.child.kill('SIGKILL');
    }
  });

  test('a whole last line without its line end is kept, and the next write gets a line of its own', async () => {
    const dataFile = join(dir, 'no-line-end.jsonl');
    const first = await startCli(['--data', dataFile]);
    const kept = await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
    await crash(first.cli);
    // What a power loss can leave under --fsync no or everysec: the line, not its line end.
    writeFileSync(dataFile, readFileSync(dataFile, 'utf8').replace(/\n$/, ''));

    const second = await startCli(['--data', dataFile]);
    const later = await call(second.url, 'POST', '/v0.1/checkouts', checkoutBody());
    assert.equal(later.status, 201);
    await crash(second.cli);
    const third = await startCli(['--data', dataFile]);
    try {
      assert.doesNotMatch(third.cli.output(), /cut short|corrupt/);
      for (const answered of [kept, later]) {
        const id = (answered.body as { id: string }).id;
        assert.equal((await call(third.url, 'GET', `/v0.1/checkouts/${id}`)).status, 200, id);
      }
    } finally {
      await crash(third.cli);
    }
  });

  test('a corrupt line before the last stops the start instead of losing what follows', async () => {
    const dataFile = join(dir, 'corrupt.jsonl');
    const first = await startCli(['--data', dataFile]);
    await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
    await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
    await crash(first.cli);
    const lines = readFileSync(dataFile, 'utf8').split('\n');
    lines[1] = '[{"op":"nonsense"}]';
    writeFileSync(dataFile, lines.join('\n'));
    const cli = runCli(['--port', '0', '--data', dataFile]);
    assert.equal(await cli.exited, 2);
    assert.match(cli.output(), /corrupt\.jsonl line 2 is corrupt; fix or remove the file/);
  });

  test('a data file written before the journal (one pretty-printed snapshot) still reads', async () => {
    const dataFile = join(dir, 'before-journal.json');
    const checkout = {
      id: '0b6f5c86-6a3e-4c1e-9a4f-5b2d0c1e7f11',
      checkout_reference: 'from-an-old-file',
      amount: 12.5,
      currency: 'EUR',
      merchant_code: MERCHANT,
      pay_to_email: 'merchant@example.com',
      purpose: 'CHECKOUT',
      date: '2026-01-02T03:04:05.000Z',
      status: 'PENDING',
      transaction_ids: [],
      processed: false,
    };
    const snapshot = {
      version: 1,
      checkouts: [checkout],
      transactions: [],
      customers: [{ customer_id: 'cus-old' }],
      instruments: [],
      nextInternalId: 1_700_000_001,
      nextEventId: 1,
    };
    writeFileSync(dataFile, `${JSON.stringify(snapshot, null, 2)}\n`);
    const sandbox = await createSandbox({ dataFile });
    try {
      const got = await call(sandbox.url, 'GET', `/v0.1/checkouts/${checkout.id}`);
      assert.equal(got.status, 200);
      assert.equal(
        (got.body as { checkout_reference: string }).checkout_reference,
        'from-an-old-file',
      );
      assert.equal((await call(sandbox.url, 'GET', '/v0.1/customers/cus-old')).status, 200);
    } finally {
      await sandbox.close();
    }
  });

  test('a start and a stop with nothing written leave the file as it was', async () => {
    const dataFile = join(dir, 'untouched.jsonl');
    const first = await createSandbox({ dataFile });
    await call(first.url, 'POST', '/v0.1/checkouts', checkoutBody());
    await first.close();
    const before = statSync(dataFile);
    const second = await createSandbox({ dataFile });
    await second.close();
    const after = statSync(dataFile);
    // Not rewritten: the same file (a rewrite renames a new one over it), the same bytes.
    assert.deepEqual(
      [after.ino, after.size, after.mtimeMs],
      [before.ino, before.size, before.mtimeMs],
    );
  });
});
