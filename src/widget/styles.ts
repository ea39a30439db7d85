// Styles travel as a constructable stylesheet (Lit's adoptedStyleSheets), never
// as a <style> string or a style attribute, so the element runs under a CSP
// without 'unsafe-inline'.
//
// Each public --payment-widget-* property feeds a private --_* one whose default is a
// light-dark() pair: the widget takes its scheme from the page (the `color-scheme` it
// inherits), as the browser's own fields do. So it is dark for a shopper whose system is
// (prefers-color-scheme) on a page that declares `light dark`, dark on a page that is
// `dark` only, and light on a page that says nothing: pale text on a white page was
// unreadable. A browser without light-dark() (Safari before 17.5, Firefox before 120,
// Chrome before 123) takes the dark palette from prefers-color-scheme alone, in the
// @supports not block: the two blocks list the same colours (a browser test compares
// them). A merchant's value wins in both schemes.
//
// The widget's size is the shopper's default font size (`medium`), or the merchant's
// --payment-widget-font-size, never the page's root: a theme that sets
// `html { font-size: 62.5% }` to write 1.6rem for 16px would otherwise draw it at 10px.
// So every length here is in em of the host's size. Where text is smaller than the host
// (a legend, a message), a length on it is divided by its size to stay the host's: the
// message's gap is --payment-widget-gap or 1em of its 0.875em, the host's 0.875em.
// A merchant's --payment-widget-font-family gets sans-serif after it: `monospace` alone
// would make `medium` the browser's monospace size (13px), as no longer list does. Without
// one, the font is the system's own, system-ui, which every browser we support knows (the
// names once written after it, -apple-system, 'Segoe UI' and Roboto, were that same font
// for browsers that did not).
//
// Space comes in three steps, the same in every part: 0.25em between a label (or a
// legend) and its field, 0.5em between choices (and inside a next step), and the gap
// (--payment-widget-gap) between everything else: fields, the button, what the widget
// says, an outcome and what it offers.
//
// The build takes the template's whitespace out (scripts/minify-css.ts); the notes
// on its rules are here:
// - A field aligns its content to flex-start, which a grid reads as start: Safari
//   before 15.6 knows only flex-start there.
// - The form is a column whose button sits at its foot: when the form keeps more
//   room after loading than it needs (form/controller.ts), the room opens above
//   the button, which stays where the placeholder's was.
// - The fields sit in a grid (.fields) inside that column, and fieldsets keep
//   their own block layout: WebKit draws a fieldset with a legend a legend's
//   height too tall while it is a grid, a flex container or a flex item (until
//   something restyles it), so a new radio group would change height on screen.
// - The payment methods sit on a grid of equal columns (8.5em fits the longest
//   name in every locale): how many rows they take depends on the widget's width
//   alone, not on the font or the language, so a page can reserve their room.
// - While the checkout loads, the form is a placeholder ([inert]): the same
//   fields with their words drawn as pale bars, still (a pulse would cost
//   47 B of the budget), and room for the button, unseen: its words grow by
//   the amount once the checkout is known, and centred words that change width
//   would move. The loading line is for screen readers only.
// - The host starts its text where its fields start: text-align inherits, and a page
//   that centres its own would centre each label, hint and message over its field.
// - Under prefers-reduced-motion, !important from inside the shadow root
//   outranks a theme's ::part() rules, so a shopper who asked for no motion gets
//   none, whatever the merchant animates.

import { css } from './css.ts';

export const styles = css`
  :host {
    --_gap: var(--payment-widget-gap, 0.875em);
    --_radius: var(--payment-widget-border-radius, 6px);
    --_fg: var(--payment-widget-color, #1b1f24);
    --_muted: var(--payment-widget-muted-color, #555d66);
    --_field-bg: var(--payment-widget-field-background, #fff);
    --_border: var(--payment-widget-border-color, #8a9199);
    --_accent: var(--payment-widget-accent-color, #0b57d0);
    --_on-accent: var(--payment-widget-accent-text-color, #fff);
    --_error: var(--payment-widget-error-color, #b3261e);
    --_success: var(--payment-widget-success-color, #146c2e);
    --_focus: var(--payment-widget-focus-color, #0b57d0);

    display: block;
    box-sizing: border-box;
    max-width: 100%;
    color: var(--_fg);
    background: var(--payment-widget-background, transparent);
    font-family: var(--payment-widget-font-family, system-ui), sans-serif;
    font-size: var(--payment-widget-font-size, medium);
    line-height: 1.4;
    text-align: start;
  }
  @supports (color: light-dark(#000, #fff)) {
    :host {
      --_fg: var(--payment-widget-color, light-dark(#1b1f24, #e6e8eb));
      --_muted: var(--payment-widget-muted-color, light-dark(#555d66, #b4bbc3));
      --_field-bg: var(--payment-widget-field-background, light-dark(#fff, #1f2329));
      --_border: var(--payment-widget-border-color, light-dark(#8a9199, #7d858f));
      --_accent: var(--payment-widget-accent-color, light-dark(#0b57d0, #a8c7fa));
      --_on-accent: var(--payment-widget-accent-text-color, light-dark(#fff, #062e6f));
      --_error: var(--payment-widget-error-color, light-dark(#b3261e, #ffb4ab));
      --_success: var(--payment-widget-success-color, light-dark(#146c2e, #8fd6a0));
      --_focus: var(--payment-widget-focus-color, light-dark(#0b57d0, #a8c7fa));
    }
  }
  @supports not (color: light-dark(#000, #fff)) {
    @media (prefers-color-scheme: dark) {
      :host {
        --_fg: var(--payment-widget-color, #e6e8eb);
        --_muted: var(--payment-widget-muted-color, #b4bbc3);
        --_field-bg: var(--payment-widget-field-background, #1f2329);
        --_border: var(--payment-widget-border-color, #7d858f);
        --_accent: var(--payment-widget-accent-color, #a8c7fa);
        --_on-accent: var(--payment-widget-accent-text-color, #062e6f);
        --_error: var(--payment-widget-error-color, #ffb4ab);
        --_success: var(--payment-widget-success-color, #8fd6a0);
        --_focus: var(--payment-widget-focus-color, #a8c7fa);
      }
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  [hidden] {
    display: none !important;
  }
  p {
    margin: 0;
  }
  form {
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
    margin: 0;
    min-width: 0;
  }
  form > button {
    margin-top: auto;
  }
  .fields {
    display: grid;
    gap: var(--_gap);
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
  }
  legend,
  label {
    font-weight: 600;
    font-size: 0.875em;
    padding: 0;
  }
  legend {
    margin-bottom: calc(0.25em / 0.875);
  }
  .row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(7.5em, 1fr));
    gap: var(--_gap);
  }
  .field {
    display: grid;
    align-content: flex-start;
    gap: 0.25em;
    min-width: 0;
  }
  .control {
    position: relative;
  }
  input,
  select {
    width: 100%;
    font: inherit;
    color: inherit;
    background: var(--_field-bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.625em 0.75em;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  #number {
    padding-right: 3em;
  }
  .icon {
    position: absolute;
    right: 0.75em;
    top: 50%;
    transform: translateY(-50%);
    width: 1.5em;
    height: 1em;
    color: var(--_muted);
    pointer-events: none;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.8125em;
  }
  .choices {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8.5em, 1fr));
    gap: 0.5em;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.5em;
    font-weight: 400;
    font-size: 1em;
  }
  .choices .choice {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5em 0.75em;
  }
  .choice input {
    width: auto;
    margin: 0;
    accent-color: var(--_accent);
  }
  button {
    font: inherit;
    font-weight: 600;
    width: 100%;
    padding: 0.75em 1em;
    border: 0;
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_on-accent);
    cursor: pointer;
  }
  .status:empty {
    display: none;
  }
  [part~=retry] {
    margin-top: var(--_gap);
  }
  .status {
    margin: var(--payment-widget-gap, 1em) 0 0;
    color: var(--_error);
    font-size: 0.875em;
  }
  .loading {
    position: absolute;
    clip-path: inset(50%);
  }
  [inert] button {
    visibility: hidden;
  }
  [inert] :is(label, .hint) {
    color: transparent;
    background: var(--_border);
    opacity: 0.3;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      animation: none !important;
    }
  }
`;
