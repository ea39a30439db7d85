// Bundle sizes: ours as built, and two minimal competitor card integrations built
// with the same bundler and settings as vite.config.ts (lib, minified, es + iife).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig, type LibraryOptions, type UserConfig } from 'vite';
import projectConfig from '../vite.config.ts';
import { ESM, IIFE, type Sizes, sizesOfFile, sumSizes } from './measure.ts';

const BENCH = dirname(fileURLToPath(import.meta.url));

export interface BundleRow {
  name: string;
  format: 'iife' | 'es';
  /** What the merchant's page downloads before the form can show, stylesheets included. */
  total: Sizes;
  /** The JavaScript alone. */
  js: Sizes;
  note?: string;
}

interface Competitor {
  name: string;
  entry: string;
  /** Stylesheets the integration fetches at run time instead of bundling. */
  runtimeCss?: string[];
  note: string;
}

const COMPETITORS: Competitor[] = [
  {
    name: '@adyen/adyen-web Card',
    entry: 'fixtures/adyen-card.js',
    note: 'card fields are iframes served by Adyen, not counted',
  },
  {
    name: 'braintree-web-drop-in',
    entry: 'fixtures/braintree-dropin.js',
    runtimeCss: ['node_modules/braintree-web-drop-in/dropin.css'],
    note: 'hosted-field iframes served by Braintree, not counted; dropin.css fetched at run time, counted',
  },
];

/**
 * The project's own build settings (vite.config.ts: target, minifier, output
 * options, plugins) with another entry and output place. Spread by hand rather
 * than through Vite's mergeConfig, which would append our format list to the
 * project's, and never aimed at the real dist/.
 */
function projectSettings(options: {
  root: string;
  lib: LibraryOptions;
  outDir?: string;
}): InlineConfig {
  const project = projectConfig as UserConfig;
  return {
    ...project,
    configFile: false,
    root: options.root,
    logLevel: 'error',
    build: {
      ...project.build,
      ...(options.outDir === undefined
        ? { write: false, outDir: join(tmpdir(), 'pw-bench-unused') }
        : { outDir: options.outDir }),
      emptyOutDir: options.outDir !== undefined,
      lib: options.lib,
    },
  };
}

export function ourBundles(): BundleRow[] {
  return [
    { name: 'payment-widget', format: 'iife', js: sizesOfFile(IIFE), total: sizesOfFile(IIFE) },
    {
      name: 'payment-widget',
      format: 'es',
      js: sizesOfFile(ESM),
      total: sizesOfFile(ESM),
    },
  ];
}

async function buildCompetitor(c: Competitor): Promise<BundleRow[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'pw-bench-bundle-'));
  try {
    // Same settings as the project's vite.config.ts; only entry and names differ.
    await build(
      projectSettings({
        root: BENCH,
        outDir,
        lib: {
          entry: join(BENCH, c.entry),
          name: 'Competitor',
          formats: ['es', 'iife'],
          fileName: (format) => `bundle.${format}.js`,
        },
      }),
    );
    const files = readdirSync(outDir);
    const css = [
      ...files.filter((f) => f.endsWith('.css')).map((f) => sizesOfFile(join(outDir, f))),
      ...(c.runtimeCss ?? []).map((f) => sizesOfFile(join(BENCH, f))),
    ];
    return (['iife', 'es'] as const).map((format) => {
      const js = sizesOfFile(join(outDir, `bundle.${format}.js`));
      return { name: c.name, format, js, total: sumSizes([js, ...css]), note: c.note };
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function competitorBundles(): Promise<BundleRow[]> {
  const rows: BundleRow[] = [];
  for (const c of COMPETITORS) rows.push(...(await buildCompetitor(c)));
  return rows;
}

export interface BreakdownRow {
  /** A dependency package or a src/ folder. */
  part: string;
  /** Bytes of tree-shaken code before minification. */
  rendered: number;
  /** The IIFE's gzip bytes shared out by rendered bytes: an estimate, not a measurement. */
  gzipShare: number;
}

function partOf(id: string, root: string): string {
  const nm = id.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const [scope, name] = id.slice(nm + 'node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? id);
  }
  const rel = id.startsWith(root) ? id.slice(root.length + 1) : id;
  return rel.split('/').slice(0, 2).join('/');
}

/** Where the script-tag build's bytes come from, to tell what to cut when over budget. */
export async function ourBreakdown(): Promise<BreakdownRow[]> {
  const root = join(BENCH, '..');
  const rendered = new Map<string, number>();
  const settings = projectSettings({
    root,
    lib: { entry: join(root, 'src/index.ts'), name: 'PaymentWidget', formats: ['iife'] },
  });
  await build({
    ...settings,
    plugins: [
      ...(settings.plugins ?? []),
      {
        name: 'bench-breakdown',
        generateBundle(_options, bundle) {
          for (const chunk of Object.values(bundle)) {
            if (chunk.type !== 'chunk') continue;
            for (const [id, mod] of Object.entries(chunk.modules)) {
              const part = partOf(id, root);
              rendered.set(part, (rendered.get(part) ?? 0) + mod.renderedLength);
            }
          }
        },
      },
    ],
  });
  const total = [...rendered.values()].reduce((a, b) => a + b, 0);
  const gzip = sizesOfFile(IIFE).gzip;
  return [...rendered]
    .filter(([, bytes]) => bytes > 0)
    .map(([part, bytes]) => ({
      part,
      rendered: bytes,
      gzipShare: Math.round((bytes / total) * gzip),
    }))
    .sort((a, b) => b.rendered - a.rendered);
}
