// Reader pairing over HTTP with simulated devices: a device's code creates a reader that is
// processing, then paired; the confirm-pairing control route; unknown, reused and expired
// codes and pairings; PATCH, delete and re-pair; scopes, merchant code and keys. Reader
// checkouts are in readers-checkouts.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReaderListSchema, ReaderSchema } from '../../../src/schemas/index.ts';
import { advanceClock, expectValid } from '../sandbox/helpers.ts';
import {
  type Device,
  EUR_10,
  expectReaderError,
  pairedReader,
  readers,
  switchOn,
  withSandbox,
} from './helpers.ts';

describe('reader pairing', () => {
  test('a device shows a code; creating a reader with it is processing, then paired', async () => {
    await withSandbox({ readers: { pairingDelayMs: 2_000 } }, async (h) => {
      const device = await switchOn(h);
      assert.match(device.pairing_code, /^[A-Z0-9]{8,9}$/);
      assert.ok(device.identifier.length > 0);
      const res = await h.api('POST', readers(), {
        pairing_code: device.pairing_code.toLowerCase(),
        name: 'Front desk',
        meta: { till: 1 },
      });
      assert.equal(res.status, 201);
      const reader = expectValid(ReaderSchema, res.body);
      assert.equal(reader.status, 'processing');
      assert.match(reader.id, /^rdr_[0-9A-Z]{26}$/);
      assert.deepEqual(reader.device, { identifier: device.identifier, model: 'solo' });
      assert.equal(reader.name, 'Front desk');
      assert.deepEqual(reader.meta, { till: 1 });
      await advanceClock(h, 2_000);
      const list = expectValid(ReaderListSchema, (await h.api('GET', readers())).body);
      assert.deepEqual(
        list.items.map((r) => [r.id, r.status]),
        [[reader.id, 'paired']],
      );
    });
  });

  test('the confirm-pairing control route pairs at once', async () => {
    await withSandbox({ readers: { pairingDelayMs: 60_000 } }, async (h) => {
      const device = await switchOn(h, { model: 'virtual-solo' });
      const reader = expectValid(
        ReaderSchema,
        (await h.api('POST', readers(), { pairing_code: device.pairing_code })).body,
      );
      assert.equal(reader.device.model, 'virtual-solo');
      // A checkout before the device confirmed is refused.
      expectReaderError(
        await h.api('POST', `${readers()}/${reader.id}/checkout`, EUR_10),
        'READER_NOT_PAIRED',
      );
      const confirmed = await h.api(
        'POST',
        `/sandbox/devices/${device.identifier}/confirm-pairing`,
      );
      assert.equal(confirmed.status, 200);
      assert.equal((confirmed.body as { screen: string }).screen, 'idle');
      const now = expectValid(ReaderSchema, (await h.api('GET', `${readers()}/${reader.id}`)).body);
      assert.equal(now.status, 'paired');
      assert.equal(
        (await h.api('POST', `/sandbox/devices/${device.identifier}/confirm-pairing`)).status,
        409,
      );
    });
  });

  test('unknown, malformed, reused and expired pairing codes are refused', async () => {
    await withSandbox({ readers: { pairingDelayMs: 0, pairingCodeTtlMs: 1000 } }, async (h) => {
      h.expectError(
        await h.api('POST', readers(), { pairing_code: 'ZZZZ9999' }),
        400,
        'INVALID',
        'pairing_code',
      );
      h.expectError(
        await h.api('POST', readers(), { pairing_code: 'ABC1234' }),
        400,
        'INVALID',
        'pairing_code',
      );
      h.expectError(
        await h.api('POST', readers(), { pairing_code: 'ABCD-1234' }),
        400,
        'INVALID',
        'pairing_code',
      );
      h.expectError(await h.api('POST', readers(), {}), 400, 'MISSING', 'pairing_code');
      const used = await switchOn(h);
      assert.equal(
        (await h.api('POST', readers(), { pairing_code: used.pairing_code })).status,
        201,
      );
      h.expectError(
        await h.api('POST', readers(), { pairing_code: used.pairing_code }),
        400,
        'INVALID',
        'pairing_code',
      );
      const late = await switchOn(h);
      await advanceClock(h, 1_000);
      h.expectError(
        await h.api('POST', readers(), { pairing_code: late.pairing_code }),
        400,
        'INVALID',
        'pairing_code',
      );
      // The device can show a fresh code.
      const fresh = await h.api('POST', `/sandbox/devices/${late.identifier}/pairing-code`);
      assert.equal(fresh.status, 201);
      const code = (fresh.body as Device).pairing_code;
      assert.notEqual(code, late.pairing_code);
      assert.equal((await h.api('POST', readers(), { pairing_code: code })).status, 201);
    });
  });

  test('a pairing never confirmed (device offline) expires', async () => {
    await withSandbox({ readers: { pairingDelayMs: 0, pairingCodeTtlMs: 1000 } }, async (h) => {
      const device = await switchOn(h);
      await h.api('POST', `/sandbox/devices/${device.identifier}/offline`);
      const reader = expectValid(
        ReaderSchema,
        (await h.api('POST', readers(), { pairing_code: device.pairing_code })).body,
      );
      assert.equal(
        expectValid(ReaderSchema, (await h.api('GET', `${readers()}/${reader.id}`)).body).status,
        'processing',
      );
      await advanceClock(h, 1_000);
      await h.api('POST', `/sandbox/devices/${device.identifier}/online`);
      assert.equal(
        expectValid(ReaderSchema, (await h.api('GET', `${readers()}/${reader.id}`)).body).status,
        'expired',
      );
    });
  });

  test('PATCH name and meta; delete; re-pairing the device yields a new reader id', async () => {
    await withSandbox({ readers: { pairingDelayMs: 0 } }, async (h) => {
      const { device, reader } = await pairedReader(h);
      const patched = await h.api('PATCH', `${readers()}/${reader.id}`, {
        name: 'Terrace',
        meta: { zone: 'B' },
      });
      assert.equal(patched.status, 200);
      const after = expectValid(ReaderSchema, patched.body);
      assert.equal(after.name, 'Terrace');
      assert.deepEqual(after.meta, { zone: 'B' });
      assert.ok(after.updated_at! >= reader.updated_at!);
      const renamed = expectValid(
        ReaderSchema,
        (await h.api('PATCH', `${readers()}/${reader.id}`, { name: 'Bar' })).body,
      );
      assert.deepEqual(renamed.meta, { zone: 'B' }, 'fields not sent keep their values');
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
      h.expectError(
        await h.api('PATCH', `${readers()}/${reader.id}`, { meta: tooMany }),
        400,
        'INVALID',
        'meta',
      );
      h.expectError(
        await h.api('PATCH', `${readers()}/${reader.id}`, { name: 'x'.repeat(501) }),
        400,
        'INVALID',
        'name',
      );
      h.expectError(
        await h.api('PATCH', `${readers()}/rdr_UNKNOWN`, { name: 'x' }),
        404,
        'NOT_FOUND',
      );

      const deleted = await h.api('DELETE', `${readers()}/${reader.id}`);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body, '');
      h.expectError(await h.api('GET', `${readers()}/${reader.id}`), 404, 'NOT_FOUND');
      assert.deepEqual((await h.api('GET', readers())).body, { items: [] });

      const code = (await h.api('POST', `/sandbox/devices/${device.identifier}/pairing-code`))
        .body as Device;
      const again = expectValid(
        ReaderSchema,
        (await h.api('POST', readers(), { pairing_code: code.pairing_code })).body,
      );
      assert.equal(again.device.identifier, device.identifier);
      assert.notEqual(again.id, reader.id);
      // A paired device shows no code.
      assert.equal(
        (await h.api('POST', `/sandbox/devices/${device.identifier}/pairing-code`)).status,
        409,
      );
    });
  });

  test('scopes, merchant code and keys', async () => {
    await withSandbox(
      {
        readers: { pairingDelayMs: 0 },
        restrictedKeys: { sk_test_rr: ['readers.read'], sk_test_rw: ['readers.write'] },
      },
      async (h) => {
        const device = await switchOn(h);
        assert.equal((await h.api('GET', readers(), undefined, 'sk_test_rr')).status, 200);
        assert.equal(
          (await h.api('POST', readers(), { pairing_code: device.pairing_code }, 'sk_test_rr'))
            .status,
          403,
        );
        assert.equal(
          (await h.api('POST', readers(), { pairing_code: device.pairing_code }, 'sk_test_rw'))
            .status,
          201,
        );
        assert.equal((await h.api('GET', readers(), undefined, 'sk_test_rw')).status, 403);
        assert.equal((await h.api('GET', readers(), undefined, null)).status, 401);
        h.expectError(await h.api('GET', readers('MOTHER')), 404, 'NOT_FOUND');
        assert.equal((await h.api('POST', '/sandbox/devices', {}, null)).status, 401);
      },
    );
  });
});
