// The build collapses each run of whitespace holding a line break in the widget's `html` and
// `svg` templates, and the sandbox dashboard's, into one space (none before a tag's `>`), and
// takes the quotes off attribute values that need none (scripts/minify-html.ts). What it
// must never do is change what a browser builds from a template: here the browser itself parses
// every template of the widget and of the dashboard as written and as built, and the two trees must be the same, element for element and
// attribute for attribute, their text alike once its whitespace collapses as CSS shows it.
import { expect } from '@open-wc/testing';
import { minifyHtml, minifyText, templatesIn } from '../../../scripts/minify-html.ts';

/** Every module under src/widget/ and src/sandbox/dashboard/ that holds an `html` or `svg` template. */
const MODULES = [
  'src/widget/payment-widget.ts',
  'src/widget/checkout/saving.ts',
  'src/widget/templates/fields.ts',
  'src/widget/templates/icons.ts',
  'src/widget/templates/methods.ts',
  'src/widget/templates/outcome.ts',
  'src/widget/templates/saved-card-choice.ts',
  'src/widget/templates/saved-cards.ts',
  'src/widget/templates/status.ts',
  ...[
    'app',
    'checkouts-view',
    'customers-view',
    'format',
    'outcomes-view',
    'readers-view',
    'requests-view',
    'sign-in',
    'toolbar',
    'webhooks-view',
  ].map((name) => `src/sandbox/dashboard/${name}.ts`),
];

/** Where an expression stands: a word that is valid text, attribute value or name alike. */
const EXPRESSION = 'x-expression';

/** A module as the test server sends it: JavaScript, its templates' text untouched. */
async function moduleCode(path: string): Promise<string> {
  const answer = await fetch(`/${path}`);
  expect(answer.ok, `${path}: ${answer.status}`).to.equal(true);
  return answer.text();
}

/** The tree the browser builds from a template's text, as one comparable string. */
function built(tag: 'html' | 'svg', text: string): string {
  const template = document.createElement('template');
  template.innerHTML = tag === 'svg' ? `<svg>${text}</svg>` : text;
  return shape(template.content);
}

function shape(node: Node): string {
  const children = Array.from(node.childNodes, shape).join('');
  if (node instanceof Element) {
    const attributes = Array.from(node.attributes, (a) => ` ${a.name}="${a.value}"`)
      .sort()
      .join('');
    return `<${node.namespaceURI} ${node.localName}${attributes}>${children}</${node.localName}>`;
  }
  // Text shows with its whitespace collapsed (white-space: normal, the widget's everywhere; the
  // dashboard's <pre> keeps it, and the build leaves a template holding one as written).
  if (node instanceof Text) return node.data.replace(/\s+/g, ' ');
  if (node instanceof Comment) return `<!--${node.data}-->`;
  return children;
}

describe('the build’s collapsing of template whitespace', () => {
  for (const path of MODULES) {
    it(`${path}: every template builds the same tree as written and as built`, async () => {
      const code = await moduleCode(path);
      const templates = templatesIn(code);
      expect(templates.length, `${path} holds no template`).to.be.greaterThan(0);
      for (const { tag, quasis } of templates) {
        const written = quasis.map((q) => q.raw).join(EXPRESSION);
        const collapsed = quasis.map((q) => minifyText(q.raw)).join(EXPRESSION);
        expect(built(tag, collapsed), written).to.equal(built(tag, written));
      }
    });
  }

  it('the collapsed text is what the build writes, and it is shorter', async () => {
    let saved = 0;
    for (const path of MODULES) {
      const code = await moduleCode(path);
      const minified = minifyHtml(code);
      saved += code.length - minified.length;
      // Only template text changed: the code around it is the same, character for character.
      const outside = (js: string) =>
        templatesIn(js)
          .flatMap((t) => t.quasis)
          .sort((a, b) => b.start - a.start)
          .reduce((rest, q) => rest.slice(0, q.start) + rest.slice(q.end), js);
      expect(outside(minified)).to.equal(outside(code));
    }
    expect(saved).to.be.greaterThan(500);
  });

  it('a value that needs no quotes loses them; a space before a tag’s end goes', () => {
    expect(minifyText('<p part="save-card"\n  class="a b" id="x"/>\n  </p\n>')).to.equal(
      '<p part=save-card class="a b" id="x"/> </p>',
    );
    expect(minifyText(' a="b=c" d=\'e\' f="g"')).to.equal(' a="b=c" d=\'e\' f=g');
  });

  it('a template holding <pre> or <textarea> is left as written', () => {
    const code = 'html`<pre>\n  a\n</pre>`; html`<p>\n  b\n</p>`;';
    expect(minifyHtml(code)).to.equal('html`<pre>\n  a\n</pre>`; html`<p> b </p>`;');
  });
});
