// What a merchant's terminal shows when their backend crashes in the built package. Node prints
// the source line of an uncaught error's frame, with a caret under its column, before the
// message: the Node entries are minified, so that line must stay short (scripts/short-lines.ts),
// or a missing option prints the whole file first.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE_DIST = join(ROOT, 'dist/node');

/** A screenful: the frame, its caret, the message and the stack. */
const READABLE_BYTES = 2_000;

/** Runs `code` as a merchant's backend module beside the package, which imports it by name. */
function crash(code: string): { status: number | null; stderr: string } {
  assert.ok(
    existsSync(join(NODE_DIST, 'server.js')),
    'dist/node/server.js is missing: run `npm run build` first (`npm test` builds before this suite)',
  );
  const { status, stderr } = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status, stderr };
}

describe('a crash in the built package', () => {
  test('a missing option prints a short frame and names the option', () => {
    const { status, stderr } = crash(`
      import { createPaymentHandler } from 'payment-widget/server';
      createPaymentHandler({
        provider: { baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test', merchantCode: 'M1' },
        publicUrl: 'http://localhost:3000/payments',
        allowedOrigins: ['http://localhost:3000'],
        resultPages: { success: '/thanks', failure: '/thanks' },
      });
    `);
    assert.equal(status, 1);
    assert.match(stderr, /TypeError: createPaymentHandler: resolveCheckout is required/);
    assert.match(stderr, /dist\/node\/server\.js:\d+\n/, 'the frame Node prints is the built file');
    assert.ok(
      Buffer.byteLength(stderr) < READABLE_BYTES,
      `${Buffer.byteLength(stderr)} bytes on stderr:\n${stderr.slice(0, 600)}`,
    );
  });

  test('every line of the Node entries and their chunks is short, but the built-file manifest', () => {
    const files = readdirSync(NODE_DIST, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.js'),
    );
    assert.ok(files.length > 5, `${files.length} built files in dist/node`);
    for (const file of files) {
      for (const line of readFileSync(join(NODE_DIST, file), 'utf8').split('\n')) {
        // The built-file manifest widgetTags() reads (vite.node.config.ts): a JSON string.
        if (line.includes('JSON.parse(`{"name":"payment-widget"')) continue;
        assert.ok(line.length < 1_000, `${file}: a line of ${line.length} characters`);
      }
    }
  });
});
