// `npm run build` (also run by `prepare`, so a git checkout or `npm install`
// of the repository gets it): everything the package ships, into a clean dist/.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rewriteDeclarations } from './declarations.ts';

const VITE = 'node_modules/vite/bin/vite.js';

const STEPS: (string[] | { part: string })[] = [
  // The self-contained browser bundles (ES module and script tag) and the locales.
  ['node_modules/vite/bin/vite.js', 'build'],
  // The parts those bundles load when needed (parts/), beside them, each on its own.
  { part: 'pay' },
  { part: 'step' },
  { part: 'languages' },
  { part: 'diagnostics' },
  // The package's entry: the widget with Lit left as an import.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.module.config.ts'],
  // `payment-widget/react`: the React component, importing the entry above.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.react.config.ts'],
  // The sandbox dashboard's script (served by the sandbox; never part of the widget).
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.dashboard.config.ts'],
  // The Node entries and the sandbox CLI.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.node.config.ts'],
  // Declarations and declaration maps for every entry, in dist/types.
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
  // dist/custom-elements.json, from the element's JSDoc.
  [
    'node_modules/@custom-elements-manifest/analyzer/cem.js',
    'analyze',
    '--quiet',
    '--config',
    'custom-elements-manifest.config.mjs',
  ],
];

rmSync('dist', { recursive: true, force: true });
for (const step of STEPS) {
  const args = 'part' in step ? [VITE, 'build', '-c', 'vite.parts.config.ts'] : step;
  const env = 'part' in step ? { ...process.env, PART: step.part } : process.env;
  const { status } = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (status !== 0) process.exit(status ?? 1);
}
rewriteDeclarations('dist/types');
