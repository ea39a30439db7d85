// The demo shop's files as a browser gets them: compressed when it accepts it and
// byte for byte the built file once decoded, cached for a year only when the name
// carries the content's hash, revalidated (a 304) otherwise, so a rebuilt file
// shows on the next load. Raw node:http requests, so the encoded bytes are seen.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { acceptedEncodings, serveFile } from '../../../server-example/static.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

const DIST = new URL('../../../dist/', import.meta.url);
const IIFE = readFileSync(new URL('payment-widget.iife.js', DIST));
const ESM = readFileSync(new URL('payment-widget.js', DIST));
/** A Vite-style content-hashed name, as the React and Vue builds write them. */
const HASHED = 'react/assets/index-B35TA7k_.js';

let sandbox: Sandbox | undefined;
let shop: ServerExample | undefined;
let examplesDir = '';

before(async () => {
  examplesDir = mkdtempSync(join(tmpdir(), 'demo-static-'));
  mkdirSync(join(examplesDir, 'react/assets'), { recursive: true });
  writeFileSync(join(examplesDir, HASHED), `console.log(${JSON.stringify('x'.repeat(3000))});\n`);
  writeFileSync(join(examplesDir, 'react/index.html'), '<!doctype html><title>React</title>\n');
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
    examplesDir,
  });
});

after(async () => {
  await shop?.close();
  await sandbox?.close();
  rmSync(examplesDir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, still encoded. */
  body: Buffer;
}

/** A GET that sends exactly `headers` (fetch would add its own Accept-Encoding and decode). */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, shop?.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const vary = (r: Raw) => String(r.headers.vary ?? '').toLowerCase();

describe('the widget bundle', () => {
  test('brotli when the browser accepts only brotli, and the decoded bytes are the build', async () => {
    for (const [path, file] of [
      ['/assets/payment-widget.iife.js', IIFE],
      ['/assets/payment-widget.js', ESM],
    ] as const) {
      const r = await get(path, { 'accept-encoding': 'br' });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-encoding'], 'br', path);
      assert.match(vary(r), /accept-encoding/, path);
      assert.equal(Number(r.headers['content-length']), r.body.byteLength, path);
      assert.ok(r.body.byteLength < file.byteLength / 2, `${path}: ${r.body.byteLength} B sent`);
      assert.deepEqual(brotliDecompressSync(r.body), file, path);
    }
  });

  test('brotli for what Chromium sends once it is made, and gzip for a gzip-only browser', async () => {
    await get('/assets/payment-widget.iife.js', { 'accept-encoding': 'br' });
    const chromium = await get('/assets/payment-widget.iife.js', {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    assert.equal(chromium.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(chromium.body), IIFE);
    const gzip = await get('/assets/payment-widget.iife.js', { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.match(vary(gzip), /accept-encoding/);
    assert.deepEqual(gunzipSync(gzip.body), IIFE);
  });

  test('identity, still varying on Accept-Encoding, when neither is accepted', async () => {
    for (const headers of [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0, deflate' },
    ] as Record<string, string>[]) {
      const r = await get('/assets/payment-widget.iife.js', headers);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.match(vary(r), /accept-encoding/);
      assert.deepEqual(r.body, IIFE);
    }
  });

  test('a lazily loaded locale file is compressed too', async () => {
    const file = readFileSync(new URL('locales/de-DE.js', DIST));
    const r = await get('/assets/locales/de-DE.js', { 'accept-encoding': 'gzip' });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(r.body), file);
  });
});

describe('caching', () => {
  test('a content-hashed example asset is cached for a year as immutable', async () => {
    const r = await get(`/examples/${HASHED}`, { 'accept-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(gunzipSync(r.body), readFileSync(join(examplesDir, HASHED)));
  });

  test('files without a hash in their name revalidate: no-cache with a validator', async () => {
    for (const path of [
      '/assets/payment-widget.iife.js',
      '/assets/locales/de-DE.js',
      '/demo/events.js',
      '/demo/demo.css',
      '/examples/react/',
    ]) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['cache-control'], 'no-cache', path);
      assert.ok(r.headers.etag, `${path}: an ETag`);
      assert.ok(r.headers['last-modified'], `${path}: a Last-Modified`);
    }
  });

  test('a matching If-None-Match or If-Modified-Since is a 304 without a body', async () => {
    const first = await get('/assets/payment-widget.iife.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    for (const headers of [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", ${etag}` },
      { 'if-modified-since': String(first.headers['last-modified']) },
    ] as Record<string, string>[]) {
      const r = await get('/assets/payment-widget.iife.js', {
        'accept-encoding': 'br',
        ...headers,
      });
      assert.equal(r.status, 304, JSON.stringify(headers));
      assert.equal(r.body.byteLength, 0);
      assert.equal(r.headers.etag, etag);
      assert.equal(r.headers['cache-control'], 'no-cache');
      assert.match(vary(r), /accept-encoding/);
    }
    const stale = await get('/assets/payment-widget.iife.js', { 'if-none-match': 'W/"0-0"' });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.body, IIFE);
  });

  test('a rebuilt file is sent at once: its old ETag no longer matches, and the new bytes go out compressed', async () => {
    const path = join(examplesDir, 'react/main.js');
    writeFileSync(path, `export const version = 1; // ${'a'.repeat(2000)}\n`);
    utimesSync(path, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const before = await get('/examples/react/main.js', { 'accept-encoding': 'gzip' });
    assert.equal(before.status, 200);
    const rebuilt = `export const version = 2; // ${'b'.repeat(2000)}\n`;
    writeFileSync(path, rebuilt);
    const after = await get('/examples/react/main.js', {
      'accept-encoding': 'gzip',
      'if-none-match': String(before.headers.etag),
    });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.equal(gunzipSync(after.body).toString('utf8'), rebuilt);
  });
});

describe('pages', () => {
  test('a shop page is gzipped when accepted, and plain when not', async () => {
    const zipped = await get('/?redirect=0', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(vary(zipped), /accept-encoding/);
    assert.match(gunzipSync(zipped.body).toString('utf8'), /<payment-widget order="/);
    const plain = await get('/?redirect=0');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(plain.body.toString('utf8'), /<payment-widget order="/);
  });
});

/** The page's `<meta name="description">` text, or undefined. */
function description(html: string): string | undefined {
  return /<meta name="description" content="([^"]+)"/.exec(html)?.[1]?.trim() || undefined;
}

test('every demo page has a meta description', async () => {
  for (const path of [
    '/',
    '/?redirect=0',
    '/module.html',
    '/result?checkout_id=abc',
    '/in-person',
  ]) {
    const r = await get(path);
    assert.equal(r.status, 200, path);
    const head = r.body.toString('utf8').split('</head>')[0] ?? '';
    assert.ok(description(head), `${path} has no meta description in its head`);
  }
  // The React and Vue pages are Vite builds of these (served from examples/dist).
  for (const framework of ['react', 'vue']) {
    const source = new URL(`../../../examples/${framework}/index.html`, import.meta.url);
    const head = readFileSync(source, 'utf8').split('</head>')[0] ?? '';
    assert.ok(description(head), `examples/${framework}/index.html has no meta description`);
  }
});

describe('serveFile', () => {
  test('still refuses any path that climbs out of its root', async () => {
    const root = new URL('../../../demo/', import.meta.url).pathname;
    for (const rest of [
      '../package.json',
      '%2e%2e/package.json',
      '..%2fpackage.json',
      '%E0%A4%A',
    ]) {
      assert.equal(await serveFile(root, rest), undefined, rest);
    }
    assert.equal((await serveFile(root, 'events.js'))?.status, 200);
  });

  test('reads Accept-Encoding by its q-values, brotli first on a tie', () => {
    assert.deepEqual(acceptedEncodings('gzip, deflate, br, zstd'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('gzip;q=1, br;q=0.5'), ['gzip', 'br']);
    assert.deepEqual(acceptedEncodings('br;q=0, gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('*'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('*;q=0, gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('identity'), []);
    assert.deepEqual(acceptedEncodings(null), []);
  });
});
