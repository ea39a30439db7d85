// The dashboard's server side: GET / is a page for browsers (strict CSP, no key in it) and the
// provider's 404 for API clients; the session cookie stands for the key only on the page's
// own same-origin requests; off loopback the page must trade the key for a session; the live
// updates stream names what changed.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkoutBody, type Harness, startSandbox } from './helpers.ts';

const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

let h: Harness;
let asking: Harness;
before(async () => {
  h = await startSandbox();
  asking = await startSandbox({ dashboardAsksForKey: true });
});
after(async () => {
  await h.sandbox.close();
  await asking.sandbox.close();
});

/** The `name=value` part of a Set-Cookie header. */
const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

describe('the dashboard page', () => {
  test('a browser gets the page under a strict CSP; an API client keeps the 404', async () => {
    const res = await fetch(`${h.sandbox.url}/`, { headers: BROWSER });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'"]) {
      assert.ok(csp.includes(directive), `${csp} has ${directive}`);
    }
    assert.ok(!csp.includes('unsafe-inline'));
    const html = await res.text();
    // Relative to the page (the sandbox's root), so a sandbox under a path prefix loads it too.
    assert.match(
      html,
      /<script type="module" src="\.\/sandbox\/dashboard\/dashboard\.js"><\/script>/,
    );
    assert.ok(!html.includes(h.sandbox.apiKey), 'the key is not in the page');
    assert.ok(!/<script>|<style>| style=/.test(html), 'nothing inline');
    const script = await fetch(`${h.sandbox.url}/sandbox/dashboard/dashboard.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.ok(!(await script.text()).includes(h.sandbox.apiKey));

    const api = await h.api('GET', '/');
    h.expectError(api, 404, 'NOT_FOUND');
  });

  test('its import map names Lit’s modules, served from the `lit` dependency; the CSP admits the map by its hash', async () => {
    const res = await fetch(`${h.sandbox.url}/`, { headers: BROWSER });
    const map = /<script type="importmap">(.*?)<\/script>/.exec(await res.text())?.[1] ?? '';
    const hash = createHash('sha256').update(map).digest('base64');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.ok(csp.includes(`script-src 'self' 'sha256-${hash}';`), csp);
    const { imports } = JSON.parse(map) as { imports: Record<string, string> };
    assert.equal(imports.lit, './sandbox/dashboard/modules/lit/index.js');
    // Each package's entry as the page resolves it: the browser build its package holds.
    for (const [name, url] of Object.entries(imports)) {
      if (name.endsWith('/')) continue;
      const module = await fetch(new URL(url, `${h.sandbox.url}/`));
      assert.equal(module.status, 200, name);
      assert.match(module.headers.get('content-type') ?? '', /^text\/javascript/);
      const file = join('node_modules', url.replace('./sandbox/dashboard/modules/', ''));
      assert.equal(await module.text(), readFileSync(file, 'utf8'), name);
    }
    // No other file of node_modules, nor any outside it.
    for (const path of [
      'hono/dist/index.js',
      'lit/package.json',
      'lit/%2e%2e/hono/package.json',
      'lit-html/..%2Fpackage.json',
    ]) {
      const refused = await fetch(`${h.sandbox.url}/sandbox/dashboard/modules/${path}`);
      assert.equal(refused.status, 404, path);
    }
  });

  test('on loopback the page opens a session that works only same-origin', async () => {
    const page = await fetch(`${h.sandbox.url}/`, { headers: BROWSER });
    const cookie = cookieOf(page);
    assert.match(page.headers.get('set-cookie') ?? '', /HttpOnly; SameSite=Strict/);
    assert.match(cookie, /^payment_sandbox_session_\d+=[\w-]{20,}$/);
    const overview = (headers: Record<string, string>) =>
      fetch(`${h.sandbox.url}/sandbox/overview`, { headers: { cookie, ...headers } });
    assert.equal((await overview(SAME_ORIGIN)).status, 200);
    // Another page on this machine (another port is the same site) cannot use it.
    assert.equal((await overview({ 'sec-fetch-site': 'same-site' })).status, 401);
    assert.equal((await overview({ 'sec-fetch-site': 'cross-site' })).status, 401);
    assert.equal((await overview({})).status, 401);
    const forged = await fetch(`${h.sandbox.url}/sandbox/overview`, {
      headers: { cookie: `${cookie.split('=')[0]}=forged`, ...SAME_ORIGIN },
    });
    assert.equal(forged.status, 401);
    // A page already signed in keeps its session.
    const again = await fetch(`${h.sandbox.url}/`, { headers: { ...BROWSER, cookie } });
    assert.equal(again.headers.get('set-cookie'), null);
  });

  test('a page reached through another host name (DNS rebinding) gets no session', async () => {
    const { port } = new URL(h.sandbox.url);
    const res = await h.sandbox.handle(
      new Request(`http://rebound.example:${port}/`, { headers: BROWSER }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('set-cookie'), null);
  });

  test('off loopback the page asks for the key and trades it for a session', async () => {
    const page = await fetch(`${asking.sandbox.url}/`, { headers: BROWSER });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('set-cookie'), null);
    const refused = await asking.api('POST', '/sandbox/session', undefined, 'sk_test_wrong');
    asking.expectError(refused, 401, 'NOT_AUTHORIZED');
    const live = await asking.api('POST', '/sandbox/session', undefined, 'sk_live_abc');
    asking.expectError(live, 401, 'NOT_AUTHORIZED');
    const signedIn = await fetch(`${asking.sandbox.url}/sandbox/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${asking.sandbox.apiKey}`, ...SAME_ORIGIN },
    });
    assert.equal(signedIn.status, 204);
    const cookie = cookieOf(signedIn);
    const overview = await fetch(`${asking.sandbox.url}/sandbox/overview`, {
      headers: { cookie, ...SAME_ORIGIN },
    });
    assert.equal(overview.status, 200);
    assert.ok(!(await overview.text()).includes(asking.sandbox.apiKey));
  });
});

describe('live updates', () => {
  test('the event stream names what changed; it needs the key', async () => {
    const refused = await fetch(`${h.sandbox.url}/sandbox/events`);
    assert.equal(refused.status, 401);
    const controller = new AbortController();
    const res = await fetch(`${h.sandbox.url}/sandbox/events`, {
      headers: { authorization: `Bearer ${h.sandbox.apiKey}` },
      signal: controller.signal,
    });
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (re: RegExp) => {
      while (!re.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended; got ${text}`);
        text += value;
      }
    };
    await readUntil(/event: ready\n/);
    await h.api('POST', '/v0.1/checkouts', checkoutBody());
    await readUntil(/event: change\ndata: (\[.*\])\n\n/);
    const topics = JSON.parse(/event: change\ndata: (\[.*\])\n\n/.exec(text)![1]!) as string[];
    assert.ok(topics.includes('state') && topics.includes('requests'), topics.join());
    controller.abort();
  });
});
