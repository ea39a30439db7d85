// The tag the widget's stylesheets are written with (its own, its parts', its next steps'):
// Lit's `css` for a template with no `${...}`, which TypeScript refuses here (the tag takes
// the template's text alone). The stylesheet is the same CSSResult, made by Lit's unsafeCSS
// from that constant text: Lit's own `css`, whose check of interpolated values no constant
// needs, then ships in no build (144 B gzip of the script-tag build). The build takes each
// template's whitespace out (scripts/minify-css.ts), as it did under Lit's tag.
import { type CSSResult, unsafeCSS } from 'lit';

export function css(strings: TemplateStringsArray): CSSResult {
  return unsafeCSS(strings[0] ?? '');
}
