// The self-contained bundles carry their own Lit without its hooks for the shadow DOM
// polyfills, which no supported browser needs (scripts/lit-polyfill-hooks.ts), and with
// everything else of Lit that talks to the page: its hydration hook and its versions.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { dropHooks } from '../../../scripts/lit-polyfill-hooks.ts';
import { BUNDLES, readBundle } from './bundle.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

const HOOKS = [
  'reactiveElementPolyfillSupport',
  'litHtmlPolyfillSupport',
  'litElementPolyfillSupport',
];

test("each of Lit's modules reads its polyfill hook, and the build step finds each read", () => {
  // The browser builds the bundle takes (Node would resolve each package to its server build).
  const modules = [
    '@lit/reactive-element/reactive-element.js',
    'lit-html/lit-html.js',
    'lit-element/lit-element.js',
  ];
  const dropped = modules.flatMap((module) => {
    const code = readFileSync(new URL(`../../../node_modules/${module}`, import.meta.url), 'utf8');
    const result = dropHooks(code);
    assert.doesNotMatch(result.code, /PolyfillSupport/, `${module} still reads a hook`);
    return result.dropped;
  });
  assert.deepEqual(dropped.sort(), [...HOOKS].sort());
});

test("the bundles read no polyfill hook of Lit's, and keep its hydration hook and versions", () => {
  for (const file of BUNDLES) {
    assert.ok(existsSync(file), `${file} ${MISSING}`);
    const { properties } = readBundle(file);
    for (const hook of HOOKS) assert.ok(!properties.has(hook), `${file} reads ${hook}`);
    for (const kept of [
      'litElementHydrateSupport',
      'reactiveElementVersions',
      'litHtmlVersions',
      'litElementVersions',
    ])
      assert.ok(properties.has(kept), `${file} lost ${kept}`);
  }
});
