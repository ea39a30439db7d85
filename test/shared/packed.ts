// The package as a merchant gets it: `npm pack` of the built checkout, installed from the
// tarball into a project outside this checkout. Shared by the consumer test (type-checks,
// imports, linters) and the runtime tests (Bun, Deno, workerd, Next.js serving the handler).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
  module?: string;
  customElements?: string;
};

export interface Run {
  status: number | null;
  stdout: string;
  /** stdout and stderr. */
  output: string;
}

export function run(command: string, args: string[], cwd: string): Run {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: process.env });
  return {
    status: result.status,
    stdout: result.stdout,
    output: `${result.stdout}${result.stderr}`,
  };
}

export interface Packed {
  /** The tarball's absolute path. */
  tarball: string;
  /** Every path the tarball holds, relative to the package root. */
  files: string[];
  /** The bytes of those files, unpacked. */
  unpackedBytes: number;
  /** The bytes of each file, unpacked, by path. */
  bytes: Map<string, number>;
  /** The tarball's own bytes: what `npm install` downloads. */
  packedBytes: number;
}

/**
 * The newest modification time of the built files (dist/): a packed tarball made before it is
 * not the build's.
 */
function builtAt(): number {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const path = join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  return newest(join(ROOT, 'dist'));
}

/** What `packed.json` beside a shared tarball records: the Packed, and the build it packed. */
interface PackedRecord extends Omit<Packed, 'bytes'> {
  bytes: [string, number][];
  builtAt: number;
}

/** Packs the checkout as it is built into `dir` (it must be built: see `npm test`). */
export function packInto(dir: string): Packed {
  assert.ok(
    existsSync(join(ROOT, 'dist')),
    'the package is not built: run `npm run build` first (`npm test` builds before this suite)',
  );
  // The build is already there: packing must not rebuild it (prepare).
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  assert.equal(pack.status, 0, pack.output);
  const [info] = JSON.parse(pack.stdout) as {
    filename: string;
    files: { path: string; size: number }[];
    unpackedSize: number;
    size: number;
  }[];
  assert.ok(info);
  return {
    tarball: join(dir, info.filename),
    files: info.files.map((file) => file.path),
    unpackedBytes: info.unpackedSize,
    bytes: new Map(info.files.map((file) => [file.path, file.size])),
    packedBytes: info.size,
  };
}

/** The environment variable that names the folder of the tarball `npm test` packed once. */
export const SHARED_PACK = 'PAYMENT_WIDGET_PACKED';

/**
 * Packs the build once into `dir` for every suite of a run to share (`npm test`'s pack step,
 * scripts/pack.ts), with what packProject needs to know of it in `dir/packed.json`.
 */
export function packShared(dir: string): Packed {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packed = packInto(dir);
  const record: PackedRecord = { ...packed, bytes: [...packed.bytes], builtAt: builtAt() };
  writeFileSync(join(dir, 'packed.json'), `${JSON.stringify(record)}\n`);
  return packed;
}

/**
 * The checkout as it is built, packed: the tarball `npm test` packed once for the whole run
 * (SHARED_PACK names its folder) while it is still the build's, else packed here into
 * `workspace` (a suite run on its own).
 */
export function packProject(workspace: string): Packed {
  const shared = process.env[SHARED_PACK];
  const file = shared ? join(shared, 'packed.json') : '';
  if (file && existsSync(file)) {
    const {
      builtAt: packedFrom,
      bytes,
      ...rest
    } = JSON.parse(readFileSync(file, 'utf8')) as PackedRecord;
    if (packedFrom === builtAt() && existsSync(rest.tarball)) {
      return { ...rest, bytes: new Map(bytes) };
    }
  }
  return packInto(workspace);
}

export interface ProjectManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * Writes `dir/package.json` (a private ES module project depending on the tarball, plus
 * `manifest`'s packages) and installs it. `--prefer-offline`: packages the main install or
 * an earlier run fetched come from npm's cache. A `package-lock.json` already in `dir`
 * pins the versions of everything but the tarball.
 */
export function installProject(dir: string, tarball: string, manifest: ProjectManifest): void {
  const packageJson = {
    name: `consumer-${dir.split(/[\\/]/).pop()}`,
    private: true,
    type: 'module',
    ...manifest,
    dependencies: { ...manifest.dependencies, [PACKAGE.name]: `file:${tarball}` },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  const install = run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    dir,
  );
  assert.equal(install.status, 0, `npm install in ${dir}:\n${install.output}`);
}
