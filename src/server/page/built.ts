// dist/integrity.json as this package was built (what widgetTags() reads of it). The Node build
// writes the page's bundles' hashes into this module (vite.node.config.ts), so
// `payment-widget/server` carries the hashes of the very files it ships beside itself, on every
// runtime. Run from the sources (the repository's tests and demo, before any Node build), it is
// read from dist/ when asked, with Node's fs.
import type { BuiltFiles } from './manifest.ts';

/** Node's `process.getBuiltinModule`, where there is one. */
interface NodeProcess {
  getBuiltinModule?(name: 'node:fs'): {
    existsSync(path: URL): boolean;
    readFileSync(path: URL, encoding: 'utf8'): string;
  };
}

export function builtManifest(): BuiltFiles {
  const file = new URL('../../../dist/integrity.json', import.meta.url);
  const process = (globalThis as { process?: NodeProcess }).process;
  const fs = process?.getBuiltinModule?.('node:fs');
  if (!fs?.existsSync(file)) {
    throw new Error('payment-widget: dist/integrity.json is missing: run `npm run build` first');
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as BuiltFiles;
}
