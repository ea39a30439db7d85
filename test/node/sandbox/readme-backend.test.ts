// The README's backend (docs/README-snippets/backend.ts, which test/e2e/readme.spec.ts holds
// equal to the README's block) run as a merchant runs it, `node backend.ts`, on the sandbox,
// seen by someone who holds only a checkout's id (a /result?checkout_id= link from history,
// a Referer header, analytics): what they read must not hand them the shopper's basket cookie,
// and "Try another card" must not act on that basket for them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/free-port.mjs';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { exitCode, run } from '../../e2e/processes.ts';
import { scaled } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';

let sb: Sandbox;
let shop: Awaited<ReturnType<typeof run>>;
let origin: string;
before(async () => {
  sb = await createSandbox({ port: 0 });
  shop = await run(
    ['docs/README-snippets/backend.ts'],
    {
      PORT: String(await freePort()),
      PROVIDER_BASE_URL: sb.url,
      PROVIDER_API_KEY: sb.apiKey,
      MERCHANT_CODE: sb.merchantCode,
    },
    /listening on (\S+)/,
  );
  origin = shop.match[1] ?? '';
});
after(async () => {
  shop?.child.kill('SIGTERM');
  await sb.close();
});

/** A call from the shop's page, with the basket cookie when one is given. */
function call(method: string, path: string, basket?: string, body?: unknown) {
  const headers: Record<string, string> = { origin, 'content-type': 'application/json' };
  if (basket !== undefined) headers.cookie = `basket=${basket}`;
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return fetch(`${origin}/payments${path}`, init);
}

/** The sandbox declines the next payment (its outcome control). */
async function declineNext(): Promise<void> {
  const declined = await fetch(`${sb.url}/sandbox/outcomes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'declined' }),
  });
  assert.equal(declined.status, 201);
}

test("a checkout's id reveals no basket cookie, and its failure's retry is its shopper's alone", async () => {
  const owner = randomUUID();
  const made = await call('POST', '/checkouts', owner, { order: { sku: 'poster' } });
  assert.equal(made.status, 201);
  const { id } = (await made.json()) as { id: string };

  // Read by anyone: the reference names the basket, the cookie's value is nowhere in it.
  const read = await fetch(`${origin}/payments/checkouts/${id}`);
  const text = await read.text();
  assert.equal(read.status, 200);
  assert.match(JSON.parse(text).checkout_reference, /^order-/);
  assert.ok(!text.includes(owner), text);

  // The owner's card is declined; the result page's link reaches a stranger.
  await declineNext();
  const paid = await call('PUT', `/checkouts/${id}`, owner, cardBody('4200000000000091'));
  assert.equal(((await paid.json()) as { status: string }).status, 'FAILED');
  for (const stranger of [randomUUID(), undefined]) {
    const retry = await call('POST', `/checkouts/${id}/retry`, stranger);
    assert.equal(retry.status, 403);
    assert.equal(((await retry.json()) as { error: { field: string } }).error.field, 'id');
  }
  const mine = await call('POST', `/checkouts/${id}/retry`, owner);
  assert.equal(mine.status, 201);
  const next = (await mine.json()) as { id: string; checkout_reference: string };
  assert.notEqual(next.id, id);
  assert.equal(next.checkout_reference, `${JSON.parse(text).checkout_reference}~2`);
});

test('a shopper whose cookies are off (no basket) still gets "Try another card" after a decline', async () => {
  const made = await call('POST', '/checkouts', undefined, { order: { sku: 'poster' } });
  assert.equal(made.status, 201);
  const { id } = (await made.json()) as { id: string };
  await declineNext();
  const paid = await call('PUT', `/checkouts/${id}`, undefined, cardBody('4200000000000091'));
  assert.equal(((await paid.json()) as { status: string }).status, 'FAILED');
  // No basket to guard: the page's retry makes the next checkout, as before authorizeBasket.
  const retry = await call('POST', `/checkouts/${id}/retry`);
  assert.equal(retry.status, 201);
  assert.notEqual(((await retry.json()) as { id: string }).id, id);
});

test('it calls reconcile() at start, for orders whose every webhook was lost: a wrong key is said at once', async () => {
  // No request has reached it yet: only the README's reconcile() at start asks the provider.
  const wrong = await run(
    ['docs/README-snippets/backend.ts'],
    {
      PORT: String(await freePort()),
      PROVIDER_BASE_URL: sb.url,
      PROVIDER_API_KEY: `${sb.apiKey}-revoked`,
      MERCHANT_CODE: sb.merchantCode,
    },
    /reconcile: .*check provider\.apiKey/,
  );
  wrong.child.kill('SIGTERM');
});

test("stopped as a framework's server stops (its server closed on SIGTERM, react-router-serve's way), it exits: its reconcile() timer keeps no process alive", async () => {
  // react-router-serve closes its server on SIGTERM and Ctrl-C and lets the process end by
  // itself once nothing is left to run: the README's timer moved into its app (React Router
  // 8.5) kept the process running until a SIGKILL (on a deploy: its whole grace period).
  const dir = mkdtempSync(join(tmpdir(), 'readme-backend-stop-'));
  const closeOnSigterm = join(dir, 'close-on-sigterm.mjs');
  writeFileSync(
    closeOnSigterm,
    `import { Server } from 'node:http';
const listen = Server.prototype.listen;
Server.prototype.listen = function (...args) {
  process.once('SIGTERM', () => this.close());
  return listen.apply(this, args);
};`,
  );
  const env = {
    PORT: String(await freePort()),
    PROVIDER_BASE_URL: sb.url,
    PROVIDER_API_KEY: sb.apiKey,
    MERCHANT_CODE: sb.merchantCode,
  };
  const backend = ['--import', closeOnSigterm, 'docs/README-snippets/backend.ts'];
  const stopping = await run(backend, env, /listening on (\S+)/);
  try {
    // A checkout made, so its provider call's connection is there too.
    const made = await fetch(`${stopping.match[1]}/payments/checkouts`, {
      method: 'POST',
      headers: { origin: stopping.match[1] ?? '', 'content-type': 'application/json' },
      body: JSON.stringify({ order: { sku: 'poster' } }),
    });
    assert.equal(made.status, 201, await made.text());
    stopping.child.kill('SIGTERM');
    const limit = scaled(10_000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([
      exitCode(stopping.child),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`still running ${limit} ms after SIGTERM`), limit);
      }),
    ]);
    clearTimeout(timer);
    assert.equal(code, 0, stopping.output());
  } finally {
    stopping.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a single-page app's route (an Angular app's /checkout), reloaded or come back to from the bank, is its index.html; a file it lacks is still not found", async () => {
  // The app's build as the backend's public/ (ng build's dist/<project>/browser, a Vite build).
  const shop = mkdtempSync(join(tmpdir(), 'readme-backend-spa-'));
  mkdirSync(join(shop, 'public'));
  const index =
    '<!doctype html><title>Shop</title><app-root></app-root><script src="/main.js"></script>';
  writeFileSync(join(shop, 'public/index.html'), index);
  writeFileSync(join(shop, 'public/main.js'), 'void 0;');
  const backend = fileURLToPath(
    new URL('../../../docs/README-snippets/backend.ts', import.meta.url),
  );
  const env = {
    PORT: String(await freePort()),
    PROVIDER_BASE_URL: sb.url,
    PROVIDER_API_KEY: sb.apiKey,
    MERCHANT_CODE: sb.merchantCode,
  };
  const spa = await run([backend], env, /listening on (\S+)/, undefined, shop);
  try {
    const at = spa.match[1] ?? '';
    for (const route of ['/', '/checkout', '/shop/poster']) {
      const page = await fetch(`${at}${route}`);
      assert.equal(page.status, 200, route);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/, route);
      assert.match(page.headers.get('set-cookie') ?? '', /^basket=[\w-]{36};/, route);
      assert.equal(await page.text(), index, route);
    }
    assert.equal((await fetch(`${at}/main.js`)).status, 200);
    for (const missing of ['/chunk-missing.js', '/favicon.ico', '/assets/nothing.js']) {
      assert.equal((await fetch(`${at}${missing}`)).status, 404, missing);
    }
    // The result page is still the backend's own.
    const result = await fetch(`${at}/result?checkout_id=chk_1`);
    assert.match(await result.text(), /<payment-widget checkout-id="chk_1"/);
  } finally {
    spa.child.kill('SIGTERM');
    rmSync(shop, { recursive: true, force: true });
  }
});

test('"Buy again" (POST /basket) gives the shop\'s own page a new basket cookie, and another site\'s form none', async () => {
  const old = randomUUID();
  const again = (from: string | null) =>
    fetch(`${origin}/basket`, {
      method: 'POST',
      headers: { cookie: `basket=${old}`, ...(from === null ? {} : { origin: from }) },
    });
  const mine = await again(origin);
  assert.equal(mine.status, 204);
  const fresh = /^basket=([\w-]{36}); Path=\/; HttpOnly; SameSite=Lax$/.exec(
    mine.headers.get('set-cookie') ?? '',
  )?.[1];
  assert.ok(fresh !== undefined && fresh !== old, mine.headers.get('set-cookie') ?? '');
  // The new basket's checkout is a new one, not the old basket's.
  const before = await call('POST', '/checkouts', old, { order: { sku: 'poster' } });
  const after = await call('POST', '/checkouts', fresh, { order: { sku: 'poster' } });
  const [a, b] = [(await before.json()) as { id: string }, (await after.json()) as { id: string }];
  assert.notEqual(a.id, b.id);
  for (const from of ['http://shop.example.net', null]) {
    const theirs = await again(from);
    assert.equal(theirs.status, 403, String(from));
    assert.equal(theirs.headers.get('set-cookie'), null, String(from));
  }
});
