// `npm run build` (also run by `prepare`, so a git checkout or `npm install`
// of the repository gets it): everything the package ships, into a clean dist/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dropUnseenDocsIn, rewriteDeclarations } from './declarations.ts';
import { writeLocales, writeManifest } from './integrity.ts';

const VITE = 'node_modules/vite/bin/vite.js';
/** tsconfig.build.json's outDir, which rollup.declarations.config.mjs bundles into dist/types. */
const UNBUNDLED = 'dist/declarations';
/** The bundled declarations, one per entry (rollup.declarations.config.mjs). */
const TYPES = 'dist/types';
const CEM = 'dist/custom-elements.json';

// Each file is built before whatever carries its hash (scripts/integrity.ts): the locale
// files before the languages part, the parts before the bundles that load them, and every
// browser file before dist/integrity.json, which the Node build carries for widgetTags().
const STEPS: (string[] | { part: string } | (() => void))[] = [
  // The locale files (locales/), which the languages part loads beside the bundles.
  () => writeLocales(),
  // The parts the self-contained bundles load when needed (parts/), beside them, each on its
  // own; the pay part last, which carries the hashes of the others it loads.
  { part: 'step' },
  { part: 'diagnostics' },
  { part: 'languages' },
  { part: 'pay' },
  // The self-contained browser bundles (ES module and script tag), with the parts' hashes.
  ['node_modules/vite/bin/vite.js', 'build'],
  // The package's entry: the widget with Lit left as an import.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.module.config.ts'],
  // `payment-widget/react`: the React component, importing the entry above.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.react.config.ts'],
  // The sandbox dashboard's script (served by the sandbox; never part of the widget).
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.dashboard.config.ts'],
  // dist/integrity.json: every file above that a browser may load.
  () => void writeManifest(),
  // The Node entries and the sandbox CLI.
  ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.node.config.ts'],
  // Declarations for every source file the entries reach, in dist/declarations.
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
  // Their `./x.ts` imports made `./x.js` (scripts/declarations.ts).
  () => void rewriteDeclarations(UNBUNDLED),
  // One declaration file per entry, in dist/types (rollup.declarations.config.mjs).
  ['node_modules/rollup/dist/bin/rollup', '--silent', '-c', 'rollup.declarations.config.mjs'],
  // Without the doc comments no editor shows: the source files' opening notes, and the docs of
  // internals a user cannot import (scripts/declarations.ts; 9 kB of the package).
  () => void dropUnseenDocsIn(TYPES),
  // dist/custom-elements.json, from the element's JSDoc.
  [
    'node_modules/@custom-elements-manifest/analyzer/cem.js',
    'analyze',
    '--quiet',
    '--config',
    'custom-elements-manifest.config.mjs',
  ],
  // ... on one line: tools read it, and the analyzer's indentation was 11 kB of the package.
  () => writeFileSync(CEM, JSON.stringify(JSON.parse(readFileSync(CEM, 'utf8')))),
];

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/locales', { recursive: true });
for (const step of STEPS) {
  if (typeof step === 'function') {
    step();
    continue;
  }
  const args = 'part' in step ? [VITE, 'build', '-c', 'vite.parts.config.ts'] : step;
  const env = 'part' in step ? { ...process.env, PART: step.part } : process.env;
  const { status } = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (status !== 0) process.exit(status ?? 1);
}
rmSync(UNBUNDLED, { recursive: true, force: true });
