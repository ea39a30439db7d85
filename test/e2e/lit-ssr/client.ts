// The browser's side: Lit's hydrate support first, before anything of Lit runs (so it patches
// LitElement as it is defined), then the widget, which takes over the server's shadow root.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '../../../src/index.ts';
