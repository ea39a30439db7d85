// The element's markup is Lit `html` (and `svg`) templates, whose text ships as written: the
// indentation of every line stays in the bundle, which no minifier touches (a template's text
// is a value). This build step turns every run of whitespace that holds a line break, in a
// template's text between its expressions, into one space (none where a tag's `>` follows it),
// takes the quotes off an attribute's value that needs none (`part="label"` is `part=label`),
// and changes nothing else. An HTML parser reads one space where it read the run: in text,
// whitespace collapses to one space (and between blocks, to nothing); between attributes and
// inside a tag, any whitespace separates alike, and none is needed before its `>`. A value
// without whitespace, quotes, `=`, `<`, `>` or a backtick reads the same unquoted; one followed
// by `/` keeps its quotes (`a=b/>` would read `b/`). Only <pre> and <textarea> keep their
// whitespace as written: a template holding either is left alone (the widget has none).
import { type Node, parse } from 'acorn';
import { simple } from 'acorn-walk';
import type { Plugin } from 'vite';

/**
 * A template's text with each run of whitespace that holds a line break made one space (none
 * before a `>`), and each attribute's value that needs no quotes without them.
 */
export function minifyText(text: string): string {
  return text
    .replace(/\s*\n\s*(>?)/g, (_, end: string) => end || ' ')
    .replace(/(\s[\w:.@?-]+)="([^"\s'=<>`]+)"(?!\/)/g, '$1=$2');
}

/** The parts of the ESTree nodes read here. */
interface Template extends Node {
  tag: Node & { name?: string };
  quasi: Node & { quasis: (Node & { value: { raw: string } })[] };
}

/** One `html` or `svg` template of a module: its tag, and each text between its expressions. */
export interface FoundTemplate {
  tag: 'html' | 'svg';
  quasis: { start: number; end: number; raw: string }[];
}

/** Every `html` and `svg` tagged template in `code` (JavaScript), in no particular order. */
export function templatesIn(code: string): FoundTemplate[] {
  const found: FoundTemplate[] = [];
  simple(parse(code, { ecmaVersion: 'latest', sourceType: 'module' }), {
    TaggedTemplateExpression(node) {
      const { tag, quasi } = node as Template;
      if (tag.type !== 'Identifier' || (tag.name !== 'html' && tag.name !== 'svg')) return;
      found.push({
        tag: tag.name,
        quasis: quasi.quasis.map((q) => ({ start: q.start, end: q.end, raw: q.value.raw })),
      });
    },
  });
  return found;
}

/** `code` with the text of each `html` and `svg` template minified (minifyText). */
export function minifyHtml(code: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { quasis } of templatesIn(code)) {
    if (quasis.some((q) => /<(?:pre|textarea)\b/i.test(q.raw))) continue;
    for (const q of quasis) {
      const text = minifyText(q.raw);
      if (text !== q.raw) edits.push({ start: q.start, end: q.end, text });
    }
  }
  // From the end, so that each edit's positions still hold.
  let out = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/**
 * Collapses the templates of the project's own modules (after TypeScript is taken out, so that
 * each module parses as JavaScript). test/browser/widget/minify-html.test.ts has the browser
 * parse every template of the widget both ways and compares what it builds from them.
 */
export function minifyHtmlTemplates(): Plugin {
  return {
    name: 'payment-widget-minify-html',
    enforce: 'post',
    transform(code, id) {
      if (
        id.includes('/node_modules/') ||
        !/\.[cm]?[jt]s$/.test(id) ||
        !/\b(?:html|svg)`/.test(code)
      ) {
        return null;
      }
      const minified = minifyHtml(code);
      return minified === code ? null : { code: minified };
    },
  };
}
