// The self-contained bundles carry their own Lit without its decorators, its attribute
// reflection, its JSON attributes and its kept defaults (useDefault), which the widget does
// not use (scripts/lit-unused.ts), and with everything else of ReactiveElement: attributes
// still reach properties, and an accessor of the element's own is still wrapped (`order`).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CUTS, DROPPED, dropUnused } from '../../../scripts/lit-unused.ts';
import { PaymentWidget } from '../../../src/widget/payment-widget.ts';
import { BUNDLES, readBundle } from './bundle.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

/** Lit's browser build of ReactiveElement, the module the bundles take (Node resolves another). */
const LIT = readFileSync(
  new URL('../../../node_modules/@lit/reactive-element/reactive-element.js', import.meta.url),
  'utf8',
);

test("the build step finds each piece once in Lit's ReactiveElement, and leaves no name of them", () => {
  for (const cut of CUTS)
    assert.equal(LIT.match(new RegExp(cut.code.source, 'g'))?.length, 1, cut.what);
  const rest = dropUnused(LIT);
  for (const name of DROPPED) assert.ok(!rest.includes(name), `${name} is left`);
  // What the widget uses stays: attributes read into properties, wrapped accessors, updates.
  for (const kept of ['fromAttribute', 'wrapped', 'createProperty', 'requestUpdate', '_$AK'])
    assert.ok(rest.includes(kept), `${kept} is gone`);
});

test('the build step refuses a Lit it does not know, naming the piece it did not find', () => {
  const later = LIT.replace('static addInitializer(', 'static addInitializers(');
  assert.throws(() => dropUnused(later), /addInitializer\(\) .*found 0 times/);
});

test('no property of the widget reflects to its attribute: the bundles cannot', () => {
  const reflected = Object.entries(PaymentWidget.properties)
    .filter(([, declaration]) => declaration.reflect)
    .map(([name]) => name);
  assert.deepEqual(reflected, [], 'reflect: true needs Lit whole (scripts/lit-unused.ts)');
});

test('no property of the widget is read from JSON by Lit or keeps a default: the bundles cannot', () => {
  const declared = Object.entries(PaymentWidget.properties) as [
    string,
    { type?: unknown; useDefault?: boolean },
  ][];
  const json = declared
    .filter(([, declaration]) => declaration.type === Object || declaration.type === Array)
    .map(([name]) => name);
  assert.deepEqual(json, [], 'type: Object or Array needs Lit whole (scripts/lit-unused.ts)');
  const kept = declared.filter(([, declaration]) => declaration.useDefault).map(([name]) => name);
  assert.deepEqual(kept, [], 'useDefault: true needs Lit whole (scripts/lit-unused.ts)');
});

test('the bundles hold neither decorators nor reflection, and keep reading attributes', () => {
  for (const file of BUNDLES) {
    assert.ok(existsSync(file), `${file} ${MISSING}`);
    const { properties, code } = readBundle(file);
    for (const name of [
      'addInitializer',
      'litPropertyMetadata',
      'toAttribute',
      '_$ET',
      '_$Eq',
      'useDefault',
      '_$Ej',
    ])
      assert.ok(!properties.has(name), `${file} holds ${name}`);
    assert.ok(!code.includes('Symbol.metadata'), `${file} polyfills Symbol.metadata`);
    for (const kept of ['fromAttribute', 'wrapped', '_$AK'])
      assert.ok(properties.has(kept), `${file} lost ${kept}`);
  }
});
