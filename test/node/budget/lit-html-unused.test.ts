// The self-contained bundles carry their own Lit without lit-html's directives, MathML and
// raw-text bindings, which no template of the widget uses (scripts/lit-html-unused.ts): a
// build that holds a directive fails, in the bundles and in the parts that draw with their
// Lit, and so does this while a template of theirs holds a raw-text element.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Plugin } from 'vite';
import {
  CUTS,
  DROPPED,
  dropUnusedHtml,
  dropUnusedLitHtml,
  RAW_TEXT_ELEMENTS,
} from '../../../scripts/lit-html-unused.ts';
import { BUNDLES, partFiles, readBundle } from './bundle.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

/** lit-html's browser build, the module the bundles take (Node resolves another). */
const LIT_HTML = readFileSync(
  new URL('../../../node_modules/lit-html/lit-html.js', import.meta.url),
  'utf8',
);

test('the build step finds each piece once in lit-html, and leaves no name of them', () => {
  for (const cut of CUTS)
    assert.equal(LIT_HTML.match(new RegExp(cut.code.source, 'g'))?.length, 1, cut.what);
  const rest = dropUnusedHtml(LIT_HTML);
  for (const name of DROPPED) assert.ok(!rest.includes(name), `${name} is left`);
  // What the widget's templates use stays: template results, parts, `nothing`, SVG, events.
  for (const kept of ['_$litType$', '_$litPart$', 'lit-nothing', '"<svg>"', 'handleEvent'])
    assert.ok(rest.includes(kept), `${kept} is gone`);
});

test('the build step refuses a lit-html it does not know, naming the piece it did not find', () => {
  const later = LIT_HTML.replace('._$litDirective$', '._$litDirective2$');
  assert.throws(() => dropUnusedHtml(later), /resolveDirective\(\).*found 0 times/);
});

test('the build step fails a build that holds a directive, in the bundles and in the parts', () => {
  for (const cut of [true, false]) {
    const plugin = dropUnusedLitHtml({ cut }) as Plugin & {
      transform: (this: unknown, code: string, id: string) => unknown;
    };
    const context = {
      error(message: string): never {
        throw new Error(message);
      },
    };
    for (const module of ['directive.js', 'async-directive.js'])
      assert.throws(
        () => plugin.transform.call(context, '', `/repo/node_modules/lit-html/${module}`),
        /runs no directive/,
        `cut: ${cut}, ${module}`,
      );
    assert.equal(plugin.transform.call(context, '', '/repo/src/widget/define.ts'), null);
  }
});

test('the bundles resolve no directive and wrap no MathML, and keep their templates', () => {
  for (const file of BUNDLES) {
    assert.ok(existsSync(file), `${file} ${MISSING}`);
    const { properties, strings } = readBundle(file);
    for (const name of ['_$litDirective$', '_$AS', '_$AT'])
      assert.ok(!properties.has(name), `${file} holds ${name}`);
    assert.ok(!strings.has('<math>'), `${file} wraps MathML`);
    for (const kept of ['_$litType$', '_$litPart$'])
      assert.ok(properties.has(kept), `${file} lost ${kept}`);
  }
});

test('no template of the bundles or their parts holds a raw-text element', () => {
  const element = new RegExp(`<(?:${RAW_TEXT_ELEMENTS.join('|')})[\\s/>]`, 'i');
  const files = [...BUNDLES, ...partFiles()];
  assert.ok(files.length > 4, `no parts beside the bundles: ${MISSING}`);
  for (const file of files) {
    assert.ok(existsSync(file), `${file} ${MISSING}`);
    const held = [...readBundle(file).strings].filter((text) => element.test(text));
    assert.deepEqual(
      held,
      [],
      `${file}: a raw-text element needs Lit whole (scripts/lit-html-unused.ts)`,
    );
  }
});
