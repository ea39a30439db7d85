// The package as a merchant gets it: `npm pack` of the built checkout, installed from the
// tarball into a project outside this checkout. Shared by the consumer test (type-checks,
// imports, linters) and the runtime tests (Bun, Deno, workerd, Next.js serving the handler).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
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

/** Packs the checkout as it is built into `workspace` (it must be built: see `npm test`). */
export function packProject(workspace: string): Packed {
  assert.ok(
    existsSync(join(ROOT, 'dist')),
    'the package is not built: run `npm run build` first (`npm test` builds before this suite)',
  );
  // The build is already there: packing must not rebuild it (prepare).
  const pack = run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', workspace],
    ROOT,
  );
  assert.equal(pack.status, 0, pack.output);
  const [info] = JSON.parse(pack.stdout) as {
    filename: string;
    files: { path: string; size: number }[];
    unpackedSize: number;
    size: number;
  }[];
  assert.ok(info);
  return {
    tarball: join(workspace, info.filename),
    files: info.files.map((file) => file.path),
    unpackedBytes: info.unpackedSize,
    bytes: new Map(info.files.map((file) => [file.path, file.size])),
    packedBytes: info.size,
  };
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
