// The built bundles run on every browser package.json's `browserslist` names
// (Safari and iOS 15+, Chrome, Edge and Samsung Internet on Chromium 100+,
// Firefox 115 ESR+), Lit included. Checked on dist/ as a shopper's browser gets
// it, against MDN's browser-compat-data:
// - syntax: the bundles parse as ES2022 (all of which those browsers read but
//   Safari 15's missing class static blocks) and hold no static block and no
//   regular-expression feature newer than the oldest browser;
// - APIs: every member or global the code reaches for that MDN knows, and that
//   some supported browser lacks, is used only behind a feature test (`'name'
//   in ...`) or is named below with the fallback that makes it safe; a bundle is
//   read with the parts it loads from beside it (dist/parts/), as one program;
// - CSS: every property and selector the element's styles use, likewise.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import bcd from '@mdn/browser-compat-data/forLegacyNode';
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import { nextStepStyles } from '../../../src/next-step/styles.ts';
import { styles as payStyles } from '../../../src/widget/parts/pay.ts';
import { styles } from '../../../src/widget/styles.ts';
import projectConfig, { buildTargets } from '../../../vite.config.ts';
import { apiIndex, BROWSERSLIST, type Gap, gapOf, OLDEST } from './browsers.ts';
import { BUNDLES, partFiles, readBundle } from './bundle.ts';

/**
 * Names that look like a newer API to a lookup by name, with why each use in
 * the bundle is safe. A name here that the bundle no longer uses fails the
 * test, so no allowance outlives its reason.
 */
const SAFE: Record<string, string> = {
  adoptedStyleSheets:
    'Lit adopts stylesheets only where `"adoptedStyleSheets" in Document.prototype`; else it writes <style> elements',
  replaceSync: 'Lit builds constructable stylesheets only under that same test',
  createPolicy:
    'Lit creates its Trusted Types policy (and calls it) only where window.trustedTypes exists',
  properties:
    "the element's static `properties` table (Lit's), which the build assigns to the class",
  capture: 'the `capture` option of addEventListener, which Lit compares between renders',
  requestSubmit:
    "called as requestSubmit?.() on the page's form around a widget without its button: where it is missing (Safari 15), Enter submits nothing and the page's own button pays",
  reason:
    "why a payment failed, a field of the widget's own lifecycle (src/widget/state.ts); AbortSignal's is read in the pay part, behind a feature test",
};

/**
 * Names taken as the newer API they also name, although an older feature of
 * another interface shares the name (so the lookup alone would let them pass).
 */
const WATCHED: Record<string, string> = { reason: 'api.AbortSignal.reason' };

const { members, globals } = apiIndex();

/** A string literal's value, also when the minifier wrote it as a template without holes. */
function stringOf(node: unknown): string | undefined {
  const n = node as {
    type: string;
    value?: unknown;
    expressions?: unknown[];
    quasis?: { value: { cooked: string | null } }[];
  };
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n.type === 'TemplateLiteral' && n.expressions?.length === 0) {
    return n.quasis?.[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

describe('the supported browsers', () => {
  test('package.json lists them and the build targets exactly them', () => {
    assert.deepEqual(BROWSERSLIST, [
      'chrome >= 100',
      'edge >= 100',
      'samsung >= 19',
      'firefox >= 115',
      'safari >= 15',
      'ios_saf >= 15',
    ]);
    assert.deepEqual(projectConfig.build?.target, buildTargets(BROWSERSLIST));
    assert.deepEqual(buildTargets(BROWSERSLIST), [
      'chrome100',
      'edge100',
      'firefox115',
      'safari15',
      'ios15',
    ]);
    assert.throws(() => buildTargets(['last 2 versions']), /cannot read/);
  });

  test('MDN’s data knows the gaps this check is for', () => {
    // If these read as supported, the data or the browser list is wrong, not the bundle right.
    for (const feature of [
      'api.AbortSignal.throwIfAborted',
      'javascript.builtins.Array.at',
      'javascript.builtins.Object.hasOwn',
      'api.structuredClone',
      'api.CSSStyleSheet.replaceSync',
      'javascript.classes.static.initialization_blocks',
      'javascript.regular_expressions.lookbehind_assertion',
    ]) {
      assert.ok(gapOf(feature), `${feature} should be missing from some supported browser`);
    }
    assert.equal(gapOf('javascript.classes.private_class_methods'), undefined);
    assert.equal(OLDEST.safari, '15');
  });
});

const describeGap = (gap: Gap): string => `${gap.feature} (${gap.missing.join(', ')})`;

for (const file of BUNDLES) {
  describe(file, () => {
    const bundle = readBundle(file);

    test('parses as ES2022, with no class static block and no newer regular expression', () => {
      assert.doesNotThrow(() =>
        parse(bundle.code, {
          ecmaVersion: 2022,
          sourceType: file.endsWith('.iife.js') ? 'script' : 'module',
        }),
      );
      const found: string[] = [];
      full(bundle.ast, (node) => {
        if (node.type === 'StaticBlock') found.push('a class static block');
        const regex = (node as { regex?: { pattern: string; flags: string } }).regex;
        if (regex && /\(\?<[=!]/.test(regex.pattern))
          found.push(`a lookbehind: /${regex.pattern}/`);
        if (regex && /v/.test(regex.flags)) found.push(`the v flag: /${regex.pattern}/v`);
      });
      assert.deepEqual(found, []);
      for (const feature of [
        'javascript.classes.private_class_fields',
        'javascript.classes.private_class_methods',
        'javascript.classes.private_class_fields_in',
        'javascript.classes.static.class_fields',
        'javascript.operators.nullish_coalescing_assignment',
        'javascript.operators.optional_chaining',
        'javascript.grammar.numeric_separators',
      ]) {
        const gap = gapOf(feature);
        assert.equal(
          gap,
          undefined,
          `ES2022 is read as supported, yet: ${gap && describeGap(gap)}`,
        );
      }
    });

    test('calls no API newer than the supported browsers, with its parts, without a fallback', () => {
      // The bundle's own properties (object keys, class members, assignments)
      // are its own, whatever an API of the same name does; its parts' too, which
      // it calls by their names.
      const own = new Set<string>();
      const used = new Set<string>();
      const usedGlobals = new Set<string>();
      const guarded = new Set<string>();
      const parts = partFiles().map(readBundle);
      assert.ok(parts.length > 0, 'no parts beside the bundle: run `npm run build` first');
      for (const program of [bundle, ...parts])
        full(program.ast, (node) => {
          const n = node as unknown as Record<string, unknown> & { type: string };
          const name = (key: unknown) =>
            (key as { type?: string; name?: string } | undefined)?.type === 'Identifier'
              ? (key as { name: string }).name
              : undefined;
          if (n.type === 'MemberExpression' && !n.computed) {
            const member = name(n.property);
            if (member) used.add(member);
          } else if (
            (n.type === 'Property' ||
              n.type === 'MethodDefinition' ||
              n.type === 'PropertyDefinition') &&
            !n.computed
          ) {
            const key = name(n.key);
            if (key) own.add(key);
          } else if (n.type === 'AssignmentExpression') {
            // `this.name = ...` makes a property of the bundle's own classes; an
            // assignment to another object may be a browser API's setter, and is
            // judged as a use.
            const left = n.left as Record<string, unknown>;
            const object = left.object as { type?: string } | undefined;
            if (
              left.type === 'MemberExpression' &&
              !left.computed &&
              object?.type === 'ThisExpression'
            ) {
              const member = name(left.property);
              if (member) own.add(member);
            }
          } else if (n.type === 'BinaryExpression' && n.operator === 'in') {
            const tested = stringOf(n.left);
            if (tested !== undefined) guarded.add(tested);
          } else if (n.type === 'Identifier') {
            usedGlobals.add(n.name as string);
          }
        });

      const problems: string[] = [];
      const allowed: string[] = [];
      const judge = (name: string, features: string[] | undefined): void => {
        if (!features) return;
        const gaps = features.map((feature) => gapOf(feature));
        // One feature of that name is supported everywhere: this use may be that one.
        if (!gaps.every((g): g is Gap => g !== undefined)) return;
        // Supported by none of our browsers at all: not something a passing
        // Chromium run could be relying on; it is one of the bundle's own names.
        if (gaps.every((g) => g.missing.length === Object.keys(OLDEST).length)) return;
        const what = gaps.map(describeGap).join(' | ');
        const safe = Object.hasOwn(SAFE, name) ? SAFE[name] : undefined;
        if (guarded.has(name)) allowed.push(`${name}: feature-tested with "${name}" in ...`);
        else if (safe) allowed.push(`${name}: ${safe}`);
        else problems.push(`${name}: ${what}`);
      };
      for (const name of used) {
        const watched = Object.hasOwn(WATCHED, name) ? WATCHED[name] : undefined;
        if (watched) judge(name, [watched]);
        else if (!own.has(name)) judge(name, members.get(name));
      }
      for (const name of usedGlobals) judge(name, globals.get(name));
      assert.deepEqual(problems, []);
      // Every allowance is still needed: a stale one could hide a future problem.
      const needed = new Set(allowed.map((line) => line.slice(0, line.indexOf(':'))));
      assert.deepEqual(
        Object.keys(SAFE).filter((name) => !needed.has(name)),
        [],
        'allowances no longer needed',
      );
    });
  });
}

/**
 * CSS the supported browsers may not know, with what they show instead: an
 * unknown declaration or selector is dropped, so each of these degrades to
 * something a shopper can use.
 */
const CSS_FALLBACKS: Record<string, string> = {
  'accent-color': 'radios and the checkbox keep the system colour',
  'overflow-wrap anywhere': 'a boleto barcode without spaces overflows its box instead of wrapping',
  ':focus-visible': "the browser's own focus ring shows instead of ours",
  'cursor pointer': 'touch screens show no cursor at all',
  'cursor progress': 'touch screens show no cursor at all',
  'font-family ui-monospace':
    'the next font of the stack (SFMono-Regular, Menlo, Consolas, monospace)',
  'user-select all': 'older Safari reads the `-webkit-user-select: all` declared before it',
};

describe("the element's CSS", () => {
  // The same css`` the bundles hold, read through Lit as the element adopts it.
  const text = [styles, nextStepStyles, ...payStyles]
    .map((sheet) => sheet.cssText)
    .join('\n')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  const declarations = new Set<string>();
  /** `property value-keyword` pairs: MDN tracks some values apart (overflow-wrap: anywhere). */
  const values = new Set<string>();
  const selectors = new Set<string>();
  for (const [, prelude = '', body = ''] of text.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
    for (const [, pseudo = ''] of prelude.matchAll(/::?([a-z-]+)/g)) selectors.add(pseudo);
    for (const declaration of body.split(';')) {
      const [, property, value = ''] = /^\s*([a-z-]+)\s*:(.*)$/s.exec(declaration) ?? [];
      if (!property) continue;
      declarations.add(property);
      for (const keyword of value.match(/[a-z][a-z-]*/g) ?? [])
        values.add(`${property} ${keyword}`);
    }
  }

  test('uses nothing newer than the supported browsers without a fallback', () => {
    assert.ok(declarations.size > 30, `read ${declarations.size} properties`);
    const problems: string[] = [];
    const needed = new Set<string>();
    for (const property of declarations) {
      if (property.startsWith('-')) continue;
      const gap = gapOf(`css.properties.${property}`);
      if (!gap) continue;
      // The prefixed spelling beside it covers what the plain one misses.
      if (
        declarations.has(`-webkit-${property}`) &&
        !gapOf(`css.properties.${property}`, '-webkit-')
      )
        continue;
      if (Object.hasOwn(CSS_FALLBACKS, property)) needed.add(property);
      else problems.push(describeGap(gap));
    }
    for (const pair of values) {
      const [property = '', keyword = ''] = pair.split(' ');
      const data = (bcd.css.properties as Record<string, Record<string, unknown>>)[property];
      if (!data || keyword === '__compat' || !Object.hasOwn(data, keyword)) continue;
      const gap = gapOf(`css.properties.${property}.${keyword}`);
      if (!gap) continue;
      if (Object.hasOwn(CSS_FALLBACKS, pair)) needed.add(pair);
      else problems.push(describeGap(gap));
    }
    for (const selector of selectors) {
      const gap = gapOf(`css.selectors.${selector}`);
      if (!gap) continue;
      if (Object.hasOwn(CSS_FALLBACKS, `:${selector}`)) needed.add(`:${selector}`);
      else problems.push(describeGap(gap));
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(
      Object.keys(CSS_FALLBACKS).filter((name) => !needed.has(name)),
      [],
      'fallbacks no longer needed',
    );
  });
});
