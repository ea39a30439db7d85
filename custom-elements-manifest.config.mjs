// The custom elements manifest (dist/custom-elements.json, named by package.json
// `customElements`): what editors, Storybook and framework tooling learn about
// <payment-widget>, read from the element's class and its JSDoc.

/** What a consumer imports: the package's entry, which defines the element. */
const ENTRY = 'dist/index.js';

/**
 * The analyzer names the TypeScript sources it read; the manifest names the
 * JavaScript a page imports instead (its schema's `path` is "not the path to a
 * TypeScript file"). The class and the `customElements.define` call live in two
 * sources, which the package's entry joins into one module. The class's private
 * members are left out: no page, editor or Storybook table can use them (2 kB).
 */
function packageEntry() {
  return {
    name: 'payment-widget-entry',
    packageLinkPhase({ customElementsManifest }) {
      const modules = customElementsManifest.modules;
      const entry = {
        kind: 'javascript-module',
        path: ENTRY,
        declarations: modules.flatMap((module) => module.declarations ?? []).map(publicOnly),
        exports: modules.flatMap((module) => module.exports ?? []),
      };
      for (const exported of entry.exports) {
        if (exported.declaration?.module) exported.declaration.module = ENTRY;
      }
      customElementsManifest.modules = [entry];
    },
  };
}

/** `declaration` without its private members. */
function publicOnly(declaration) {
  if (!declaration.members) return declaration;
  const members = declaration.members.filter((member) => member.privacy !== 'private');
  return { ...declaration, members };
}

export default {
  globs: ['src/widget/payment-widget.ts', 'src/widget/define.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json names the manifest itself; the build must not rewrite it.
  packagejson: false,
  plugins: [packageEntry()],
};
