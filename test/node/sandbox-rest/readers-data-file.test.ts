// Readers in the sandbox's data file: paired devices, readers and operators survive a
// restart with dataFile, and a reset forgets them.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ReaderSchema } from '../../../src/schemas/index.ts';
import { expectValid } from '../sandbox/helpers.ts';
import { EUR_10, pairedReader, readers, withSandbox } from './helpers.ts';

describe('reader state in the data file', () => {
  test('devices, readers and operators survive a restart with dataFile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-readers-'));
    const dataFile = join(dir, 'state.json');
    try {
      let readerId = '';
      let identifier = '';
      await withSandbox({ dataFile, readers: { pairingDelayMs: 0 } }, async (h) => {
        const { device, reader } = await pairedReader(h);
        readerId = reader.id;
        identifier = device.identifier;
        await h.api('POST', '/v0.1/me/accounts', {
          username: 'kept@example.com',
          password: 'longenough',
        });
      });
      await withSandbox({ dataFile }, async (h) => {
        const reader = expectValid(
          ReaderSchema,
          (await h.api('GET', `${readers()}/${readerId}`)).body,
        );
        assert.equal(reader.status, 'paired');
        assert.equal(reader.device.identifier, identifier);
        assert.equal(
          (await h.api('POST', `${readers()}/${readerId}/checkout`, EUR_10)).status,
          201,
        );
        const ops = (await h.api('GET', '/v0.1/me/accounts')).body as { username: string }[];
        assert.deepEqual(
          ops.map((o) => o.username),
          ['kept@example.com'],
        );
        // A reset forgets them like every other record.
        await h.api('POST', '/sandbox/reset');
        assert.deepEqual((await h.api('GET', readers())).body, { items: [] });
        assert.deepEqual((await h.api('GET', '/sandbox/devices')).body, []);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
