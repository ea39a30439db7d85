// The dashboard's built script as `index.ts` serves it: read once from
// dist/sandbox-dashboard/dashboard.js (`npm run build`) beside this package, whether this
// module runs from src/ or from dist/node/; and the modules of Lit it imports, from the
// package's own `lit` dependency where Node finds it. Node only; dashboard.ts takes any reader.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIT_PACKAGES } from './dashboard.ts';

/** The folder above `file` that holds the package.json of the package `name`. */
function packageFolder(file: string, name: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const found = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (found.name === name) return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The package's root, found from this module whether it runs from src/ or from dist/node/. */
function packageRoot(): string | undefined {
  return packageFolder(fileURLToPath(import.meta.url), 'payment-widget');
}

let script: string | undefined;

/** The built script, read once; undefined until `npm run build` made it. */
export function builtScript(): string | undefined {
  if (script !== undefined) return script;
  const root = packageRoot();
  const file = root && join(root, 'dist', 'sandbox-dashboard', 'dashboard.js');
  if (file && existsSync(file)) script = readFileSync(file, 'utf8');
  return script;
}

const folders = new Map<string, string | undefined>();

/**
 * The folder of Lit's package `name`, as Node resolves it: `lit` from this package, the three
 * it imports from `lit`'s own folder (where a package manager that does not hoist them puts
 * them). Undefined when it is not installed: the page's import then fails, in its console.
 */
function litFolder(name: string): string | undefined {
  if (!folders.has(name)) {
    const lit = name === 'lit' ? undefined : litFolder('lit');
    let folder: string | undefined;
    if (name === 'lit' || lit !== undefined) {
      const from = lit === undefined ? fileURLToPath(import.meta.url) : join(lit, 'package.json');
      try {
        folder = packageFolder(createRequire(from).resolve(name), name);
      } catch {
        folder = undefined;
      }
    }
    folders.set(name, folder);
  }
  return folders.get(name);
}

/**
 * A module of Lit's as the dashboard's page imports it (`lit-html/lit-html.js`, a path that
 * dashboard.ts checked: one of LIT_PACKAGES, then a file of it), or undefined when there is
 * none.
 */
export function litModule(path: string): string | undefined {
  const name = LIT_PACKAGES.find((own) => path.startsWith(`${own}/`));
  const folder = name && litFolder(name);
  const file = folder && join(folder, path.slice(name.length + 1));
  return file && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
