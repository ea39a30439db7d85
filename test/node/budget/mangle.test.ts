// The browser build shortens a listed set of property names (BUNDLE_PRIVATE in
// vite.config.ts) to stay within its size budget. That is only safe for names
// that never leave the bundle: a shortened event-detail key, request-body field,
// mount option or string key would break merchants silently, and the browser
// unit tests (which run the sources, not the build) would not notice. This
// reads every public name from the declarations and strings and checks none is
// on the list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { en } from '../../../src/widget/locales/en.ts';
import { BUNDLE_PRIVATE } from '../../../vite.config.ts';

/** Property names declared in a TypeScript source (`name:` or `name?:` at the start of a line). */
function declaredNames(path: string): string[] {
  const source = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
  return [...source.matchAll(/^\s+(?:readonly\s+)?(\w+)\??:/gm)].map((m) => m[1] as string);
}

const PUBLIC_SOURCES = [
  'src/widget/events.ts', // event details
  'src/widget/body.ts', // the process body the backend receives
  'src/widget/mount.ts', // mount() options and the returned handle
  'src/schemas/checkout.ts', // every checkout and next_step field the backend may send
];

test('no public name is on the minifier’s list of bundle-private properties', () => {
  const names = new Set([...Object.keys(en), ...PUBLIC_SOURCES.flatMap(declaredNames)]);
  assert.ok(names.size > 80, `expected many public names, read ${names.size}`);
  const shortened = [...names].filter((name) => BUNDLE_PRIVATE.test(name));
  assert.deepEqual(shortened, []);
});

test('the list does shorten the private names it is meant for', () => {
  for (const name of ['isValid', 'cvvLength', 'touched', 'onChallenge', 'caret', 'render_']) {
    assert.ok(BUNDLE_PRIVATE.test(name), name);
  }
});
