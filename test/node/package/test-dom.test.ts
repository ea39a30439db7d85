// A merchant's page tests in a DOM made for Node (Vitest's `jsdom` environment, which sets the
// window's globals so): Node's export conditions load Lit's server build, in which the widget
// draws its placeholder and asks no handler. Without a word it would wait on "Loading payment
// form…" for ever; it says why in the console. The built ES entry, as the package exports it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('<!doctype html><html lang="en"><body></body></html>', {
  url: 'http://127.0.0.1/',
});
// The window's own members, as Vitest copies them (Node's own, such as fetch, kept).
for (const key of Object.getOwnPropertyNames(window)) {
  if (!(key in globalThis)) Reflect.set(globalThis, key, Reflect.get(window, key));
}
for (const key of ['window', 'document', 'HTMLElement', 'customElements', 'Event', 'CustomEvent']) {
  Reflect.set(globalThis, key, Reflect.get(window, key));
}

test('in jsdom the widget draws its placeholder, asks no handler, and says why in the console', async () => {
  const warned: string[] = [];
  const asked: string[] = [];
  const { warn } = console;
  const { fetch } = globalThis;
  console.warn = (...words: unknown[]) => void warned.push(words.join(' '));
  globalThis.fetch = (input) => {
    asked.push(String(input));
    return Promise.reject(new TypeError('no network in this test'));
  };
  try {
    await import('payment-widget');
    window.document.body.innerHTML = `<payment-widget order='{"sku":"poster"}'></payment-widget>`;
    const widget = window.document.querySelector('payment-widget');
    assert.ok(widget);
    await widget.updateComplete;
    assert.match(widget.shadowRoot?.textContent ?? '', /Loading payment form…\s+Card number/);
    assert.deepEqual(asked, []);
    assert.equal(warned.length, 1);
    assert.match(
      warned[0] ?? '',
      /^payment-widget: Lit runs its server build here .* in a browser/,
    );
  } finally {
    console.warn = warn;
    globalThis.fetch = fetch;
  }
});
