// What widgetTags() writes before the widget's tag: an inline script, allowed by its hash (or
// the nonce), that tells the page when the widget's first file fails. Run here in a page made
// of stand-ins (node:vm): a file that answers and fails its integrity loads the page once per
// tab, then each <payment-widget> says the words a screen reader announces, hears
// WIDGET_INTEGRITY, and one report in the widget's shape goes to the first one's endpoint, which
// the handler reads as an integrity violation; no answer says the words with NETWORK_ERROR,
// reports nothing and loads nothing again. The browsers run it in
// test/engines/page-security.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { sri } from '../../../scripts/integrity.ts';
import { widgetTags } from '../../../src/server/index.ts';
import { ENTRY_GUARD, ENTRY_GUARD_HASH } from '../../../src/server/page/entry-guard.ts';
import { violationsIn } from '../../../src/server/page/violations.ts';
import { stoppedWords } from '../../../src/shared/stopped-words.ts';

const NONCE = 'cGF5bWVudC13aWRnZXQtbm9uY2U=';
const PAGE = 'https://shop.example/checkout';
const SRC = 'https://shop.example/assets/payment-widget.iife.js';
const INTEGRITY = 'sha384-old';

interface Widget {
  attributes: Record<string, string>;
  endpoint?: string;
  said: { role: string | null; lang: string; text: string }[];
  heard: { type: string; detail: unknown; bubbles: boolean; composed: boolean }[];
}

/** An object of the page's realm, as one of this one (deepEqual compares prototypes). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const widget = (attributes: Record<string, string> = {}): Widget => ({
  attributes,
  said: [],
  heard: [],
});

/**
 * The guard run in a page of stand-ins; `fail` fires the error of a script (`src`) and
 * settles once the guard has done what it does.
 */
function page(options: {
  /** What the file answers: bytes that match, bytes that do not, a 404, or nothing. */
  file: 'matches' | 'tampered' | '404' | 'none';
  widgets?: Widget[];
  storage?: Record<string, unknown> | 'off';
  loading?: boolean;
}) {
  const widgets = options.widgets ?? [widget({ endpoint: '/payments' })];
  const storage = options.storage ?? {};
  const seen = {
    reloads: 0,
    fetched: [] as string[],
    beacons: [] as { url: string; body: string }[],
  };
  const listeners: Record<string, (event: unknown) => void> = {};
  let ready = () => {};
  const element = () => {
    const attributes: Record<string, string> = {};
    return {
      lang: '',
      textContent: '',
      setAttribute: (name: string, value: string) => {
        attributes[name] = value;
      },
      getAttribute: (name: string) => attributes[name] ?? null,
    };
  };
  const document = {
    readyState: options.loading ? 'loading' : 'complete',
    addEventListener: (type: string, listener: () => void) => {
      assert.equal(type, 'DOMContentLoaded');
      ready = listener;
    },
    createElement: (name: string) => {
      assert.equal(name, 'p');
      return element();
    },
    querySelectorAll: (selector: string) => {
      assert.equal(selector, 'payment-widget');
      return widgets.map((w) => ({
        endpoint: w.endpoint,
        getAttribute: (name: string) => w.attributes[name] ?? null,
        append: (p: ReturnType<typeof element>) =>
          w.said.push({ role: p.getAttribute('role'), lang: p.lang, text: p.textContent }),
        dispatchEvent: (event: Widget['heard'][number]) => void w.heard.push(event),
      }));
    },
  };
  const context = {
    addEventListener: (type: string, listener: (event: unknown) => void, capture: boolean) => {
      assert.equal(capture, true, 'a script error does not bubble: heard while captured');
      listeners[type] = listener;
    },
    fetch: (url: string, init?: { integrity?: string }) => {
      seen.fetched.push(url);
      if (options.file === 'none') return Promise.reject(new TypeError('Failed to fetch'));
      if (init?.integrity === undefined) return Promise.resolve({ ok: options.file !== '404' });
      assert.equal(init.integrity, INTEGRITY);
      return options.file === 'tampered'
        ? Promise.reject(new TypeError('integrity'))
        : Promise.resolve({ ok: true });
    },
    get sessionStorage() {
      if (storage === 'off') throw new Error('SecurityError');
      return storage;
    },
    location: { href: PAGE, reload: () => void seen.reloads++ },
    document,
    navigator: {
      sendBeacon: (url: string, body: string) => seen.beacons.push({ url, body }) > 0,
    },
    console: { error: () => {} },
    CustomEvent: class {
      type: string;
      constructor(type: string, init: object) {
        this.type = type;
        Object.assign(this, init);
      }
    },
  };
  runInNewContext(ENTRY_GUARD, context);
  return {
    seen,
    widgets,
    /** The page parsed to its end (DOMContentLoaded). */
    loaded: () => ready(),
    async fail(target: { src?: string; integrity?: string } = { src: SRC, integrity: INTEGRITY }) {
      listeners.error?.({ target });
      // The guard's two fetches, and what follows them, settle within these turns.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe("widgetTags()' guard of the widget's first file", () => {
  test('comes before the tag, with the nonce, and the policy allows it by its hash', () => {
    assert.equal(
      ENTRY_GUARD_HASH,
      `'${sri(ENTRY_GUARD, 'sha256')}'`,
      'entry-guard.ts changed: set ENTRY_GUARD_HASH to the hash above',
    );
    const tags = widgetTags({ assetsUrl: '/assets/', nonce: NONCE });
    assert.ok(tags.html.startsWith(`<script nonce="${NONCE}">${ENTRY_GUARD}</script><script `));
    assert.deepEqual(tags.csp['script-src'], ["'self'", ENTRY_GUARD_HASH]);
    const bare = widgetTags({ assetsUrl: '/assets/', module: true });
    assert.ok(bare.html.startsWith(`<script>${ENTRY_GUARD}</script><script type="module" `));
    assert.doesNotMatch(ENTRY_GUARD, /<\/script|<!--/i, 'the text would end its element early');
  });

  test('tampered, the first time in this tab: the page loads once more, and says nothing', async () => {
    const storage: Record<string, unknown> = {};
    const run = page({ file: 'tampered', storage });
    await run.fail();
    assert.equal(run.seen.reloads, 1);
    assert.deepEqual(storage, { [INTEGRITY]: 1 });
    assert.deepEqual(run.seen.beacons, []);
    assert.deepEqual(run.widgets[0]?.said, []);
  });

  test('tampered again: each widget says so and hears WIDGET_INTEGRITY; the handler hears once', async () => {
    const widgets = [widget({ endpoint: '/api/pay/' }), widget({ endpoint: '/other' })];
    const run = page({ file: 'tampered', widgets, storage: { [INTEGRITY]: 1 } });
    await run.fail();
    assert.equal(run.seen.reloads, 0);
    for (const w of widgets) {
      assert.deepEqual(w.said, [{ role: 'alert', lang: 'en', text: stoppedWords.errNotLoaded }]);
      assert.equal(w.heard.length, 1);
      const [event] = w.heard;
      assert.equal(event?.type, 'payment-error');
      assert.deepEqual(
        { bubbles: event?.bubbles, composed: event?.composed },
        { bubbles: true, composed: true },
      );
      assert.deepEqual(plain(event?.detail), {
        code: 'WIDGET_INTEGRITY',
        message: `${SRC} is not the file this widget was built with (integrity ${INTEGRITY}), so it did not run it`,
        retryable: false,
      });
    }
    // The first widget's endpoint, as the widget itself sends it: the handler reads it.
    assert.equal(run.seen.beacons.length, 1);
    const [beacon] = run.seen.beacons;
    assert.equal(beacon?.url, '/api/pay/reports');
    assert.deepEqual(violationsIn('reports', JSON.parse(beacon?.body ?? 'null')), [
      {
        kind: 'integrity',
        documentUrl: PAGE,
        blockedUrl: SRC,
        directive: 'integrity',
        disposition: 'enforce',
        integrity: INTEGRITY,
      },
    ]);
  });

  test('the endpoint by default, widgets the page had not parsed yet, and storage that is off', async () => {
    const widgets = [widget()];
    const run = page({ file: 'tampered', widgets, storage: 'off', loading: true });
    await run.fail();
    assert.deepEqual(widgets[0]?.said, [], 'spoke before the page was parsed');
    run.loaded();
    assert.equal(run.seen.reloads, 0);
    assert.equal(widgets[0]?.said.length, 1);
    assert.equal(run.seen.beacons[0]?.url, '/payments/reports');
  });

  for (const file of ['none', '404'] as const) {
    test(`no answer (${file}) is not tampering: the words, NETWORK_ERROR, nothing reported or reloaded`, async () => {
      const run = page({ file });
      await run.fail();
      const [w] = run.widgets;
      assert.deepEqual(
        w?.said.map((s) => s.text),
        [stoppedWords.errNotLoaded],
      );
      assert.deepEqual(plain(w?.heard[0]?.detail), {
        code: 'NETWORK_ERROR',
        message: `${SRC} did not load`,
        retryable: true,
      });
      assert.equal(run.seen.reloads, 0);
      assert.deepEqual(run.seen.beacons, []);
    });
  }

  test('the ES module build is guarded too; other errors on the page are left alone', async () => {
    const module = page({ file: 'none' });
    await module.fail({ src: SRC.replace('.iife', ''), integrity: INTEGRITY });
    assert.deepEqual(module.seen.fetched, [SRC.replace('.iife', '')]);
    const others = page({ file: 'tampered' });
    await others.fail({ src: 'https://shop.example/js/payment-widget.iife.js.map' });
    await others.fail({ src: 'https://shop.example/js/shop.js' });
    await others.fail({});
    assert.deepEqual(others.seen.fetched, []);
  });
});
