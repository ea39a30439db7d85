// The dashboard's built script as `index.ts` serves it: read once from
// dist/sandbox-dashboard/dashboard.js (`npm run build`) beside this package, whether this
// module runs from src/ or from dist/node/. Node only; dashboard.ts takes any reader.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root, found from this module whether it runs from src/ or from dist/node/. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (name === 'payment-widget') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
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
