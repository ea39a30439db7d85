// Where the script-tag build's minified bytes come from, per source module, read
// from a sourcemap of the real build (what to cut when over budget).
//
//   node --import tsx bench/attribute.ts [--top N]
//
// `min` is the minified bytes the sourcemap gives each module; `-gzip` is how
// much the whole IIFE's gzip shrinks when that module's bytes are cut out. The
// latter is the honest number (gzip shares a module's words with its
// neighbours), but the deltas do not add up to the total.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type UserConfig } from 'vite';
import projectConfig from '../vite.config.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One line of a sourcemap's `mappings`: [generated column, source index] per segment. */
function decodeLine(line: string, state: { source: number }): [number, number][] {
  const out: [number, number][] = [];
  let column = 0;
  for (const segment of line.split(',')) {
    if (!segment) continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const ch of segment) {
      const digit = B64.indexOf(ch);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += fields[0] ?? 0;
    if (fields.length > 1) state.source += fields[1] ?? 0;
    out.push([column, fields.length > 1 ? state.source : -1]);
  }
  return out;
}

const gzip = (text: string): number => gzipSync(text, { level: 9 }).byteLength;

async function main(): Promise<void> {
  const topArg = process.argv.indexOf('--top');
  const top = topArg > 0 ? Number(process.argv[topArg + 1]) : 40;
  const outDir = mkdtempSync(join(tmpdir(), 'pw-attribute-'));
  try {
    const project = projectConfig as UserConfig;
    await build({
      ...project,
      configFile: false,
      root: ROOT,
      logLevel: 'error',
      build: {
        ...project.build,
        outDir,
        emptyOutDir: true,
        sourcemap: true,
        lib: {
          entry: join(ROOT, 'src/index.ts'),
          name: 'PaymentWidget',
          formats: ['iife'],
          fileName: () => 'bundle.js',
        },
      },
    });
    const code = readFileSync(join(outDir, 'bundle.js'), 'utf8');
    const map = JSON.parse(readFileSync(join(outDir, 'bundle.js.map'), 'utf8')) as {
      sources: string[];
      mappings: string;
    };
    const names = map.sources.map((s) => relative(ROOT, resolve(outDir, s)));
    // owner[i]: the source index that char i of the output came from (-1: none).
    const owner = new Int32Array(code.length).fill(-1);
    const lines = code.split('\n');
    const state = { source: 0 };
    let lineStart = 0;
    map.mappings.split(';').forEach((mapping, i) => {
      const segments = decodeLine(mapping, state);
      const length = lines[i]?.length ?? 0;
      segments.forEach(([column, source], k) => {
        const end = segments[k + 1]?.[0] ?? length;
        owner.fill(source, lineStart + column, lineStart + end);
      });
      lineStart += length + 1;
    });
    const total = gzip(code);
    const rows = names.map((name, index) => {
      let min = 0;
      let without = '';
      for (let i = 0; i < code.length; i++) {
        if (owner[i] === index) min++;
        else without += code[i];
      }
      return { name, min, gzipDelta: min ? total - gzip(without) : 0 };
    });
    const unmapped = owner.filter((o) => o === -1).length;
    rows.sort((a, b) => b.gzipDelta - a.gzipDelta);
    console.log(`IIFE: ${code.length} B minified, ${total} B gzip; ${unmapped} B unmapped`);
    console.log(`${'module'.padEnd(52)} ${'min'.padStart(6)} ${'-gzip'.padStart(6)}`);
    for (const row of rows.slice(0, top)) {
      if (!row.min) continue;
      console.log(
        `${row.name.padEnd(52)} ${String(row.min).padStart(6)} ${String(row.gzipDelta).padStart(6)}`,
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
