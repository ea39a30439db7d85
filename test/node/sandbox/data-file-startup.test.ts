// Starting on a big data file: 30,000 checkouts (20,000 in the snapshot line, with a paid
// transaction each, and 10,000 more as journal lines after it, as a crash leaves them) must
// load and serve within two seconds of an idle machine's time. The time is printed; the bound is
// the acceptance's, checked on the processor time the start used (what a busy machine does
// not stretch, as it stretches the wall clock), and on the wall clock scaled to this machine.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { scaled } from '../../shared/until.ts';
import { AT, checkoutDraft, paymentDraft } from './record-drafts.ts';

const IN_SNAPSHOT = 20_000;
const IN_JOURNAL = 10_000;
const LIMIT_MS = 2_000;

const dir = mkdtempSync(join(tmpdir(), 'sandbox-startup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function checkout(i: number, transactionId?: string) {
  return {
    ...checkoutDraft(`order-${i}`),
    id: randomUUID(),
    amount: 10 + (i % 50),
    description: `Order ${i}`,
    return_url: 'https://shop.example/hooks',
    status: transactionId ? 'PAID' : 'PENDING',
    status_history: [
      { status: 'PENDING', at: AT },
      ...(transactionId ? [{ status: 'PAID', at: AT }] : []),
    ],
    transaction_ids: transactionId ? [transactionId] : [],
    ...(transactionId && { transaction_id: transactionId, transaction_code: `TX${i}` }),
    processed: transactionId !== undefined,
  };
}

function transaction(i: number, checkoutId: string, id: string) {
  return {
    ...paymentDraft(checkoutId),
    id,
    transaction_code: `TX${i}`,
    internal_id: 1_700_000_001 + i,
    amount: 10 + (i % 50),
    auth_code: '123456',
    card: { last_4_digits: '0091', type: 'VISA' },
    product_summary: `Order ${i}`,
  };
}

test(`a data file of ${IN_SNAPSHOT + IN_JOURNAL} checkouts loads in under ${LIMIT_MS} ms`, async (t) => {
  const checkouts = [];
  const transactions = [];
  for (let i = 0; i < IN_SNAPSHOT; i += 1) {
    const txnId = randomUUID();
    const c = checkout(i, txnId);
    checkouts.push(c);
    transactions.push(transaction(i, c.id, txnId));
  }
  const snapshot = {
    version: 1,
    checkouts,
    transactions,
    customers: [],
    instruments: [],
    nextInternalId: 1_700_000_001 + IN_SNAPSHOT,
    nextEventId: 1,
  };
  const lines = [JSON.stringify(snapshot)];
  const lastId = { value: '' };
  for (let i = IN_SNAPSHOT; i < IN_SNAPSHOT + IN_JOURNAL; i += 1) {
    const record = checkout(i);
    lastId.value = record.id;
    lines.push(JSON.stringify([{ op: 'put', kind: 'checkouts', record }]));
  }
  const dataFile = join(dir, 'big.jsonl');
  writeFileSync(dataFile, `${lines.join('\n')}\n`);
  const megabytes = statSync(dataFile).size / 2 ** 20;

  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const sandbox = await createSandbox({ dataFile });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const elapsed = performance.now() - started;
  try {
    t.diagnostic(
      `startup on ${IN_SNAPSHOT + IN_JOURNAL} checkouts (${megabytes.toFixed(1)} MiB, ${IN_JOURNAL} journal lines): ${elapsed.toFixed(0)} ms, ${cpuMs.toFixed(0)} ms of processor time`,
    );
    const res = await sandbox.handle(
      new Request(`${sandbox.url}/v0.1/checkouts/${lastId.value}`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      }),
    );
    assert.equal(res.status, 200);
    assert.ok(cpuMs < LIMIT_MS, `startup took ${cpuMs.toFixed(0)} ms of processor time`);
    assert.ok(elapsed < scaled(LIMIT_MS), `startup took ${elapsed.toFixed(0)} ms`);
  } finally {
    await sandbox.close();
  }
});
