// The browser build shortens property names that follow one convention, Lit's:
// a leading underscore marks a member private to the bundle (vite.config.ts,
// MANGLED_PROPERTIES). A shortened public name (an element property, an event
// detail key, a mount option, a string key, a DOM or Intl option) would break
// merchants silently, and the browser unit tests run the sources, not the
// build. So this reads the built bundles in dist/ and compares them with the
// same build left unmangled: the only names allowed to vanish are our own
// `_name`s; Lit's `_$` protocol names and every public name stay as written.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { build, type UserConfig } from 'vite';
import { PARTS_DIR } from '../../../bench/measure.ts';
import { en } from '../../../src/widget/locales/en.ts';
import { PaymentWidget } from '../../../src/widget/payment-widget.ts';
import projectConfig, { MANGLED_PROPERTIES } from '../../../vite.config.ts';
import { WIDGET_EVENTS } from '../../shared/events.ts';
import { BUNDLES, type Bundle, parseBundle, readBundle } from './bundle.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

/** Property names declared in a TypeScript source (`name:` or `name?:` at the start of a line). */
function declaredNames(path: string): string[] {
  const source = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
  return [...source.matchAll(/^\s+(?:readonly\s+)?(\w+)\??:/gm)].map((m) => m[1] as string);
}

const properties = Object.entries(PaymentWidget.properties).filter(([, o]) => !o.state);

/** Names a page, a merchant's code or the browser reads: each must survive the minifier. */
const PUBLIC: Record<string, string[]> = {
  'element properties': properties.map(([name]) => name),
  'public methods': ['submit', 'reset', 'focus'],
  'event details': declaredNames('src/widget/events.ts'),
  'mount options and handle': [
    ...declaredNames('src/widget/mount.ts'),
    'id',
    'onResponse',
    'update',
    'unmount',
  ],
  'string keys': Object.keys(en),
  'the process body': declaredNames('src/widget/methods/types.ts'),
  'DOM, fetch and Intl options': [
    'bubbles',
    'composed',
    'detail',
    'credentials',
    'headers',
    'method',
    'body',
    'signal',
    'once',
    'style',
    'currency',
    'mode',
    'host',
    'adoptedStyleSheets',
    'litNonce',
    'selectionStart',
    'selectionEnd',
    'setSelectionRange',
    'inputType',
    'activeElement',
    'dataset',
    'contentWindow',
  ],
};

/** The same build with nothing mangled: what the minifier would leave of every name. */
async function unmangledBuild(): Promise<Bundle[]> {
  const project = projectConfig as UserConfig;
  const outputs = (await build({
    ...project,
    configFile: false,
    logLevel: 'silent',
    build: {
      ...project.build,
      write: false,
      rolldownOptions: {
        ...project.build?.rolldownOptions,
        output: { ...project.build?.rolldownOptions?.output, minify: { codegen: true } },
      },
    },
  })) as { output: { type: string; fileName: string; code?: string }[] }[];
  return outputs.flatMap(({ output }) =>
    output
      .filter((o) => o.type === 'chunk' && o.code !== undefined)
      .map((o) => parseBundle(o.code ?? '', `dist/${o.fileName}`)),
  );
}

/**
 * The convention, spelled out here rather than read from vite.config.ts, so a
 * wider pattern there fails this test: a leading underscore, but not Lit's `_$`
 * protocol names, nor `__proto__`-like names, nor the bare `_` Lit's own
 * minifier gave one of its methods.
 */
function isOurPrivate(name: string): boolean {
  return name.startsWith('_') && !name.startsWith('_$') && !name.startsWith('__') && name !== '_';
}

test('the build mangles by that convention', () => {
  for (const name of ['_phase', '_load', '_x']) assert.ok(MANGLED_PROPERTIES.include.test(name));
  for (const name of ['_$litType$', '_$AH', '__proto__', '_', 'checkoutId', 'kind']) {
    const mangled = MANGLED_PROPERTIES.include.test(name) && !MANGLED_PROPERTIES.exclude.test(name);
    assert.equal(mangled, false, name);
  }
});

let built: Bundle[] = [];
let plain: Bundle[] = [];
before(async () => {
  for (const file of BUNDLES) assert.ok(existsSync(file), `${file} ${MISSING}`);
  built = BUNDLES.map(readBundle);
  plain = await unmangledBuild();
});

test('only our own leading-underscore names are shortened', () => {
  for (const bundle of built) {
    const unmangled = plain.find((b) => b.file === bundle.file);
    assert.ok(unmangled, `no unmangled build of ${bundle.file}`);
    const vanished = [...unmangled.properties].filter((name) => !bundle.properties.has(name));
    assert.ok(vanished.length > 10, `${bundle.file}: expected our private members to be shortened`);
    const notOurs = vanished.filter((name) => !isOurPrivate(name));
    assert.deepEqual(notOurs, [], `${bundle.file}: names shortened outside the convention`);
  }
});

test('no leading-underscore name of ours is left unshortened, and Lit’s `_$` names all are kept', () => {
  for (const bundle of built) {
    const underscored = [...bundle.properties].filter((name) => name.startsWith('_'));
    const left = underscored.filter(isOurPrivate);
    assert.deepEqual(left, [], `${bundle.file}: private members the minifier did not shorten`);
    const lit = underscored.filter((name) => name.startsWith('_$'));
    // lit-html and ReactiveElement talk to each other (and to another Lit on the
    // page, SSR hydration and dev tools) through these. (Not `_$litDirective$`: the
    // bundles' Lit runs no directive, scripts/lit-html-unused.ts.)
    for (const name of ['_$litType$', '_$cssResult$', '_$litPart$']) {
      assert.ok(lit.includes(name), `${bundle.file}: Lit's ${name} is missing`);
    }
    const unmangled = plain.find((b) => b.file === bundle.file);
    const litPlain = [...(unmangled?.properties ?? [])].filter((name) => name.startsWith('_$'));
    assert.deepEqual(lit.sort(), litPlain.sort(), `${bundle.file}: Lit's _$ names differ`);
  }
});

for (const [kind, names] of Object.entries(PUBLIC)) {
  test(`no public name is shortened: ${kind}`, () => {
    assert.ok(names.length > 0, `read no ${kind}`);
    // The parts a bundle loads beside it (dist/parts/) use some of these names instead.
    const parts = new Set(
      readdirSync(PARTS_DIR)
        .filter((name) => name.endsWith('.js'))
        .flatMap((name) => [...readBundle(join(PARTS_DIR, name)).properties]),
    );
    for (const bundle of built) {
      const missing = names.filter((name) => !bundle.properties.has(name) && !parts.has(name));
      assert.deepEqual(missing, [], `${bundle.file}: ${kind} missing from the bundle's names`);
    }
  });
}

test('every attribute and event name is in the bundle (or the parts it loads) as written', () => {
  const attributes = properties.map(([, o]) => o.attribute).filter((a) => typeof a === 'string');
  assert.ok(attributes.includes('checkout-id'));
  const parts = readdirSync(PARTS_DIR)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(PARTS_DIR, name), 'utf8'))
    .join('\n');
  for (const bundle of built) {
    for (const attribute of attributes) {
      assert.ok(bundle.strings.has(attribute), `${bundle.file}: attribute ${attribute}`);
    }
    for (const event of WIDGET_EVENTS) {
      assert.ok(
        bundle.code.includes(event) || parts.includes(event),
        `${bundle.file}: event ${event}`,
      );
    }
  }
});
