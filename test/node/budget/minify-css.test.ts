// The build takes whitespace and comments out of the element's `css` templates, and the
// sandbox dashboard's (scripts/minify-css.ts). What it must never do is change what a browser reads:
// these tests parse the stylesheets before and after with a real CSS parser
// (lightningcss, which normalises both the same way) and compare the results,
// and check that the bundles carry the minified text.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { transform } from 'lightningcss';
import { DIST, IIFE } from '../../../bench/measure.ts';
import { minifyCss } from '../../../scripts/minify-css.ts';
import { nextStepStyles } from '../../../src/next-step/styles.ts';
import { SandboxDashboard } from '../../../src/sandbox/dashboard/app.ts';
import { SandboxRequests } from '../../../src/sandbox/dashboard/requests-view.ts';
import { pageStyles, shared } from '../../../src/sandbox/dashboard/styles.ts';
import { SandboxWebhooks } from '../../../src/sandbox/dashboard/webhooks-view.ts';
import { styles as payStyles } from '../../../src/widget/parts/pay.ts';
import { styles } from '../../../src/widget/styles.ts';

/**
 * The stylesheet as a CSS parser understands it, written back in one canonical
 * form. A var()'s fallback is kept as the tokens written, so the space after a
 * comma in a font list would show there, though it never changes a value.
 */
function parsed(css: string): string {
  const { code } = transform({ filename: 'styles.css', code: Buffer.from(css), minify: true });
  return code.toString().replace(/, /g, ',');
}

/** Every declaration as written, in order: what the minifier must keep one for one. */
function declarations(css: string): string[] {
  return [...minifyCss(css).matchAll(/[{;]([-\w]+):/g)].map((m) => m[1] as string);
}

/** An element's own sheet: the one of its `styles` that is not the shared one. */
function own(element: { styles?: unknown }): string {
  const [sheet, ...more] = [element.styles].flat().filter((sheet) => sheet !== shared);
  assert.equal(more.length, 0, 'one sheet of its own');
  return (sheet as { cssText: string }).cssText;
}

/** The dashboard's sheets: the page's, the one its elements share, and each element's own. */
const DASHBOARD = {
  'dashboard page': pageStyles.cssText,
  'dashboard shared': shared.cssText,
  'dashboard app': own(SandboxDashboard),
  'dashboard requests': own(SandboxRequests),
  'dashboard webhooks': own(SandboxWebhooks),
};

const SHEETS = {
  widget: styles.cssText,
  ...Object.fromEntries(payStyles.map((sheet, i) => [`pay part #${i + 1}`, sheet.cssText])),
  'next-step': nextStepStyles.cssText,
  ...DASHBOARD,
};

for (const [name, source] of Object.entries(SHEETS)) {
  test(`the ${name} stylesheet parses the same minified as written`, () => {
    const minified = minifyCss(source);
    assert.ok(
      minified.length < source.length * 0.8,
      `only ${source.length - minified.length} characters saved`,
    );
    assert.equal(parsed(minified), parsed(source));
  });
}

test('a fallback declaration before its modern twin survives, as written', () => {
  const css = `.field {\n  align-content: flex-start;\n  align-content: start;\n}`;
  assert.equal(minifyCss(css), '.field{align-content:flex-start;align-content:start}');
  assert.deepEqual(declarations(css), ['align-content', 'align-content']);
});

test('a space that is a descendant combinator stays; spaces CSS never reads go', () => {
  assert.equal(
    minifyCss(
      '[inert] :is(label, .hint) {\n  color: transparent !important;\n}\nform > button { margin: 0 }',
    ),
    '[inert] :is(label,.hint){color:transparent!important}form>button{margin:0}',
  );
});

test("a number's leading zero goes, and the spaces around a selector's sibling combinators", () => {
  assert.equal(
    minifyCss('.a + .b ~ p {\n  margin: 0.5em -0.25em 10.5px;\n  width: calc(1em + 0.5px);\n}'),
    '.a+.b~p{margin:.5em -0.25em 10.5px;width:calc(1em + .5px)}',
  );
});

test('quoted text keeps every character; comments go', () => {
  assert.equal(
    minifyCss(`/* a note */ .a::before { content: "a ; b { }"; font-family: 'Segoe  UI', x }`),
    `.a::before{content:"a ; b { }";font-family:'Segoe  UI',x}`,
  );
});

test('the script-tag build carries the widget stylesheet minified', () => {
  assert.ok(
    existsSync(IIFE),
    `${IIFE} is missing: run \`npm run build\` first (\`npm test\` builds before this suite)`,
  );
  const bundle = readFileSync(IIFE, 'utf8');
  assert.ok(
    bundle.includes(minifyCss(styles.cssText)),
    'the minified widget stylesheet is not in the bundle',
  );
  // The pay part's styles load with it beside the bundle, the next steps' with theirs.
  const sheets = [
    ['pay.js', payStyles],
    ['step.js', [nextStepStyles]],
  ] as const;
  for (const [name, styles] of sheets) {
    const file = join(DIST, 'parts', name);
    assert.ok(existsSync(file), `${file} is missing`);
    const part = readFileSync(file, 'utf8');
    for (const sheet of styles) {
      assert.ok(
        part.includes(minifyCss(sheet.cssText)),
        `not minified in ${file}: ${sheet.cssText}`,
      );
    }
  }
});

test("the sandbox dashboard's script carries its stylesheets minified", () => {
  const file = join(DIST, 'sandbox-dashboard', 'dashboard.js');
  assert.ok(existsSync(file), `${file} is missing: run \`npm run build\` first`);
  const script = readFileSync(file, 'utf8');
  for (const [name, css] of Object.entries(DASHBOARD)) {
    assert.ok(script.includes(minifyCss(css)), `${name}: not minified in ${file}`);
  }
});
