// Reader checkouts over HTTP with simulated devices: a card on the device pays and the result
// is POSTed to return_url, the start window, offline devices, minimum software versions,
// terminate, PIN entry, every seed limit on the body, and the merchant country's rules
// (Brazil, Hungary). Pairing is in readers-pairing.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ReaderCheckoutResponseSchema,
  ReaderCheckoutStatusChangeSchema,
  TransactionFullSchema,
} from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import {
  advanceClock,
  expectValid,
  type Harness,
  startSandbox,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../sandbox/helpers.ts';
import {
  EUR_10,
  expectReaderError,
  MERCHANT,
  pairedReader,
  readers,
  withSandbox,
} from './helpers.ts';

describe('reader checkouts', () => {
  let h: Harness;
  let hooks: WebhookReceiver;
  before(async () => {
    h = await startSandbox({ readers: { pairingDelayMs: 0 } });
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await h.sandbox.close();
    await hooks.close();
  });

  const start = (readerId: string, body: Record<string, unknown> = EUR_10) =>
    h.api('POST', `${readers()}/${readerId}/checkout`, body);

  async function resultFor(clientTransactionId: string) {
    const hit = () =>
      hooks.received.find(
        (r) =>
          (r.body as { payload?: { client_transaction_id?: string } }).payload
            ?.client_transaction_id === clientTransactionId,
      );
    await until(`the result posted for ${clientTransactionId}`, () => hit() !== undefined);
    return expectValid(ReaderCheckoutStatusChangeSchema, hit()!.body);
  }

  test('a card on the device pays; the result reaches return_url and the transaction is findable', async () => {
    const { device, reader } = await pairedReader(h);
    const res = await start(reader.id, {
      total_amount: { value: 1050, currency: 'EUR', minor_unit: 2 },
      description: 'Lunch',
      tip_rates: [0.05, 0.1, 0.15],
      return_url: hooks.url,
      affiliate: {
        app_id: 'com.example.pos',
        key: 'aff-key',
        foreign_transaction_id: 'F-1',
        tags: { till: '2' },
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = expectValid(ReaderCheckoutResponseSchema, res.body).data.client_transaction_id;
    const screen = await h.api('GET', `/sandbox/devices/${device.identifier}`);
    assert.equal((screen.body as { screen: string }).screen, 'waiting_for_card');
    const tap = await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {
      card_number: '5200000000000007',
    });
    assert.equal(tap.status, 200);
    assert.equal((tap.body as { screen: string }).screen, 'idle');
    const result = await resultFor(id);
    assert.equal(result.event_type, 'solo.transaction.updated');
    assert.deepEqual(
      { ...result.payload, transaction_id: undefined },
      {
        client_transaction_id: id,
        merchant_code: MERCHANT,
        status: 'successful',
        transaction_id: undefined,
      },
    );
    const txn = expectValid(
      TransactionFullSchema,
      (await h.api('GET', `/v2.1/merchants/${MERCHANT}/transactions?client_transaction_id=${id}`))
        .body,
    );
    assert.equal(txn.id, result.payload.transaction_id);
    assert.equal(txn.amount, 10.5);
    assert.equal(txn.status, 'SUCCESSFUL');
    assert.equal(txn.product_summary, 'Lunch');
    assert.deepEqual(txn.card, { last_4_digits: '0007', type: 'MASTERCARD' });
    // The card number never reaches the log.
    assert.ok(!h.logs.some((l) => l.includes('5200000000000007')));
  });

  test('the 60-second window: a second checkout is refused until the first ends', async () => {
    const { device, reader } = await pairedReader(h);
    const first = expectValid(
      ReaderCheckoutResponseSchema,
      (await start(reader.id, { ...EUR_10, return_url: hooks.url })).body,
    );
    expectReaderError(await start(reader.id), 'READER_BUSY');
    const errors = (await start(reader.id)).body as { errors: { detail: string } };
    assert.equal(errors.errors.detail, 'A pending transaction already exists for this device');
    // No card within the 60-second window (sandbox time, moved on here rather than waited
    // for): the checkout fails and its result is posted.
    await advanceClock(h, 60_000);
    const result = await resultFor(first.data.client_transaction_id);
    assert.equal(result.payload.status, 'failed');
    assert.equal((await start(reader.id)).status, 201);
    // A finished checkout frees the device at once.
    await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {});
    assert.equal((await start(reader.id)).status, 201);
  });

  test('an offline device is refused, and accepted again once online', async () => {
    const { device, reader } = await pairedReader(h);
    await h.api('POST', `/sandbox/devices/${device.identifier}/offline`);
    expectReaderError(await start(reader.id), 'READER_OFFLINE');
    const body = (await start(reader.id)).body as { errors: { detail: string } };
    assert.equal(body.errors.detail, 'The device is offline.');
    expectReaderError(await h.api('POST', `${readers()}/${reader.id}/terminate`), 'READER_OFFLINE');
    await h.api('POST', `/sandbox/devices/${device.identifier}/online`);
    assert.equal((await start(reader.id)).status, 201);
  });

  test('minimum Solo software: 3.3.24.3 to start a checkout, 3.3.28.0 to terminate', async () => {
    const old = await pairedReader(h, { software_version: '3.3.24.2' });
    expectReaderError(await start(old.reader.id), 'READER_SOFTWARE_OUTDATED');
    const mid = await pairedReader(h, { software_version: '3.3.24.3' });
    assert.equal((await start(mid.reader.id)).status, 201);
    expectReaderError(
      await h.api('POST', `${readers()}/${mid.reader.id}/terminate`),
      'READER_SOFTWARE_OUTDATED',
    );
    const recent = await pairedReader(h, { software_version: '3.3.28.0' });
    assert.equal((await start(recent.reader.id)).status, 201);
    assert.equal((await h.api('POST', `${readers()}/${recent.reader.id}/terminate`)).status, 202);
    // The limits are the Solo's: a virtual Solo has none.
    const virtual = await pairedReader(h, { model: 'virtual-solo', software_version: '1.0' });
    assert.equal((await start(virtual.reader.id)).status, 201);
    assert.equal((await h.api('POST', `${readers()}/${virtual.reader.id}/terminate`)).status, 202);
    h.expectError(
      await h.api('POST', '/sandbox/devices', { software_version: 'latest' }),
      400,
      'INVALID',
      'software_version',
    );
    h.expectError(
      await h.api('POST', '/sandbox/devices', { model: 'air' }),
      400,
      'INVALID',
      'model',
    );
  });

  test('terminate only while the device waits for the cardholder; the result is failed', async () => {
    const { device, reader } = await pairedReader(h);
    const terminate = () => h.api('POST', `${readers()}/${reader.id}/terminate`);
    expectReaderError(await terminate(), 'READER_NOT_WAITING');
    const waitingCard = expectValid(
      ReaderCheckoutResponseSchema,
      (await start(reader.id, { ...EUR_10, return_url: hooks.url })).body,
    );
    const done = await terminate();
    assert.equal(done.status, 202);
    assert.equal(done.body, '');
    assert.equal(
      (await resultFor(waitingCard.data.client_transaction_id)).payload.status,
      'failed',
    );
    expectReaderError(await terminate(), 'READER_NOT_WAITING');

    const waitingPin = expectValid(
      ReaderCheckoutResponseSchema,
      (await start(reader.id, { ...EUR_10, return_url: hooks.url })).body,
    );
    const tap = await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {
      pin: true,
    });
    assert.equal((tap.body as { screen: string }).screen, 'waiting_for_pin');
    assert.equal((await terminate()).status, 202);
    assert.equal((await resultFor(waitingPin.data.client_transaction_id)).payload.status, 'failed');
    // After a payment ends there is nothing to terminate.
    await start(reader.id);
    await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {});
    expectReaderError(await terminate(), 'READER_NOT_WAITING');
  });

  test('PIN entry, a wrong PIN, a declined amount and a technical-error card', async () => {
    const { device, reader } = await pairedReader(h);
    const run = async (
      body: Record<string, unknown>,
      card: Record<string, unknown>,
      pin?: Record<string, unknown>,
    ) => {
      const id = expectValid(
        ReaderCheckoutResponseSchema,
        (await start(reader.id, { ...body, return_url: hooks.url })).body,
      ).data.client_transaction_id;
      await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, card);
      if (pin) {
        const entered = await h.api('POST', `/sandbox/devices/${device.identifier}/enter-pin`, pin);
        assert.equal(entered.status, 200);
      }
      return (await resultFor(id)).payload.status;
    };
    assert.equal(await run(EUR_10, { pin: true }, {}), 'successful');
    assert.equal(await run(EUR_10, { pin: true }, { correct: false }), 'failed');
    assert.equal(
      await run({ total_amount: { value: 1100, currency: 'EUR', minor_unit: 2 } }, {}),
      'failed',
    );
    assert.equal(await run(EUR_10, { card_number: '4012001037461114' }), 'failed');
    // Control routes refuse actions the screen does not offer.
    assert.equal(
      (await h.api('POST', `/sandbox/devices/${device.identifier}/enter-pin`, {})).status,
      409,
    );
    assert.equal(
      (await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {})).status,
      409,
    );
    await start(reader.id);
    h.expectError(
      await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {
        card_number: '4200000000000092',
      }),
      400,
      'INVALID',
      'card_number',
    );
    assert.equal((await h.api('POST', '/sandbox/devices/NOPE/present-card', {})).status, 404);
  });

  test('the body limits, each refused with 422 naming the field', async () => {
    const { reader } = await pairedReader(h);
    const amount = (value: unknown, currency = 'EUR', minor_unit: unknown = 2) => ({
      total_amount: { value, currency, minor_unit },
    });
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['no total_amount', {}, 'MISSING', 'total_amount'],
      ['value 0', amount(0), 'INVALID', 'total_amount.value'],
      ['value not whole', amount(10.5), 'INVALID', 'total_amount.value'],
      ['HUF with decimals', amount(1000, 'HUF', 2), 'INVALID', 'total_amount.minor_unit'],
      ['CLP with decimals', amount(1000, 'CLP', 2), 'INVALID', 'total_amount.minor_unit'],
      ['COP with decimals', amount(1000, 'COP', 2), 'INVALID', 'total_amount.minor_unit'],
      ['EUR without decimals', amount(10, 'EUR', 0), 'INVALID', 'total_amount.minor_unit'],
      // ISO 4217's minor units, where 2 was assumed: CFA francs have none, Iraqi dinars 3.
      ['XOF with decimals', amount(5000, 'XOF', 2), 'INVALID', 'total_amount.minor_unit'],
      ['IQD to the cent', amount(1000, 'IQD', 2), 'INVALID', 'total_amount.minor_unit'],
      ['another currency', amount(1000, 'USD', 2), 'INVALID', 'total_amount.currency'],
      ['tip below 0.01', { ...EUR_10, tip_rates: [0, 0.1] }, 'INVALID', 'tip_rates.0'],
      ['tip above 0.99', { ...EUR_10, tip_rates: [0.1, 1] }, 'INVALID', 'tip_rates.1'],
      ['tips not ascending', { ...EUR_10, tip_rates: [0.15, 0.1] }, 'INVALID', 'tip_rates'],
      ['tip between steps', { ...EUR_10, tip_rates: [0.125] }, 'INVALID', 'tip_rates'],
      [
        'installments outside Brazil',
        { ...EUR_10, installments: 2, card_type: 'credit' },
        'INVALID',
        'installments',
      ],
      ['card_type unknown', { ...EUR_10, card_type: 'prepaid' }, 'INVALID', 'card_type'],
      [
        'return_url over http',
        { ...EUR_10, return_url: 'http://example.com/hook' },
        'INVALID',
        'return_url',
      ],
      ['return_url not a URL', { ...EUR_10, return_url: 'hook' }, 'INVALID', 'return_url'],
      [
        'affiliate without key',
        { ...EUR_10, affiliate: { app_id: 'a', foreign_transaction_id: 'f' } },
        'MISSING',
        'affiliate.key',
      ],
      [
        'affiliate without app_id',
        { ...EUR_10, affiliate: { key: 'k', foreign_transaction_id: 'f' } },
        'MISSING',
        'affiliate.app_id',
      ],
    ];
    for (const [name, body, code, param] of cases) {
      const res = await start(reader.id, body);
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(res.body)}`);
      expectReaderError(res, code, param);
    }
    h.expectError(
      await start(reader.id, '{not json' as unknown as Record<string, unknown>),
      400,
      'INVALID',
      'body',
    );
    // The accepted forms: HTTPS return_url, loopback http, tip rates at both ends.
    const ok = await start(reader.id, {
      ...EUR_10,
      tip_rates: [0.01, 0.5, 0.99],
      return_url: 'https://example.com/hook',
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    await h.api('POST', `${readers()}/${reader.id}/terminate`);
    assert.equal(
      (await start(reader.id, { ...EUR_10, return_url: 'http://127.0.0.1:9/hook' })).status,
      201,
    );
    await h.api('POST', `${readers()}/${reader.id}/terminate`);
    h.expectError(await start('rdr_UNKNOWN'), 404, 'NOT_FOUND');
  });
});

describe('reader checkouts by merchant country', () => {
  test('Brazil: card_type required, installments up to 12 and only on credit', async () => {
    await withSandbox({ country: 'BR', readers: { pairingDelayMs: 0 } }, async (h) => {
      const { device, reader } = await pairedReader(h);
      const brl = { total_amount: { value: 12_000, currency: 'BRL', minor_unit: 2 } };
      const start = (body: Record<string, unknown>) =>
        h.api('POST', `${readers()}/${reader.id}/checkout`, body);
      expectReaderError(await start(brl), 'MISSING', 'card_type');
      expectReaderError(
        await start({ ...brl, card_type: 'credit', installments: 13 }),
        'INVALID',
        'installments',
      );
      expectReaderError(
        await start({ ...brl, card_type: 'credit', installments: 0 }),
        'INVALID',
        'installments',
      );
      expectReaderError(
        await start({ ...brl, card_type: 'debit', installments: 3 }),
        'INVALID',
        'installments',
      );
      const ok = await start({ ...brl, card_type: 'credit', installments: 12 });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const id = expectValid(ReaderCheckoutResponseSchema, ok.body).data.client_transaction_id;
      await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {});
      const txn = expectValid(
        TransactionFullSchema,
        (await h.api('GET', `/v2.1/merchants/${MERCHANT}/transactions?client_transaction_id=${id}`))
          .body,
      );
      assert.equal(txn.installments_count, 12);
      assert.equal(txn.amount, 120);
    });
  });

  test('Hungary: HUF with minor_unit 0', async () => {
    await withSandbox({ country: 'HU', readers: { pairingDelayMs: 0 } }, async (h) => {
      const { device, reader } = await pairedReader(h);
      const res = await h.api('POST', `${readers()}/${reader.id}/checkout`, {
        total_amount: { value: 4990, currency: 'HUF', minor_unit: 0 },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = expectValid(ReaderCheckoutResponseSchema, res.body).data.client_transaction_id;
      await h.api('POST', `/sandbox/devices/${device.identifier}/present-card`, {});
      const txn = expectValid(
        TransactionFullSchema,
        (await h.api('GET', `/v2.1/merchants/${MERCHANT}/transactions?client_transaction_id=${id}`))
          .body,
      );
      assert.equal(txn.amount, 4990);
      assert.equal(txn.currency, 'HUF');
    });
  });
});
