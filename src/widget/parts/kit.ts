// What a part of the widget that loads on demand (./imports.ts) takes from the code that
// painted the form: Lit's template and style tags, so a page runs one Lit whichever build
// it loads, and the few helpers the parts share with it. Parts import these from here,
// never from 'lit' or another module of the widget: in the script-tag build a part is a
// file of its own (dist/parts/), built with ./kit-lent.ts in this file's place, which
// reads the same names from the bundle that loaded it. A name added here is added to
// ./kit-lent.ts too (the parts build fails on a name it cannot find there).
export { css, html, nothing, svg } from 'lit';
export { format } from '../locales/format.ts';
