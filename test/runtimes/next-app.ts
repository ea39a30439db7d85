// The README's Next.js section as an app (examples/next), installed beside the packed package
// and built by `next build`: what next.test.ts starts with `next start` and pays through, on
// each Node line. `npm test` builds it once, in a step of its own, into a folder every line's
// next.test.ts then starts (PAYMENT_WIDGET_NEXT_APP names it): the build does not depend on the
// Node that serves it. A next.test.ts run on its own builds its app itself.
//
//   node --import tsx test/runtimes/next-app.ts DIR     builds the app into DIR
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installProject, packProject, ROOT } from '../shared/packed.ts';
import { start } from './support.ts';

const EXAMPLE = join(ROOT, 'examples/next');
export const NEXT_QUIET = { NEXT_TELEMETRY_DISABLED: '1' };

/** The environment variable that names the app `npm test` built once. */
export const SHARED_NEXT_APP = 'PAYMENT_WIDGET_NEXT_APP';

/** Next.js's own command line, in the app `dir`. */
export const nextBin = (dir: string) => join(dir, 'node_modules/next/dist/bin/next');

/** Copies, installs (beside the packed package) and builds the app into `dir`. */
export async function buildNextApp(dir: string, workspace: string): Promise<void> {
  const { tarball } = packProject(workspace);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of ['app', 'next.config.ts', 'tsconfig.json', 'package-lock.json']) {
    cpSync(join(EXAMPLE, file), join(dir, file), { recursive: true });
  }
  // The test's own page: a link to the product page, for client-side navigation.
  mkdirSync(join(dir, 'app/start'));
  writeFileSync(
    join(dir, 'app/start/page.tsx'),
    `import Link from 'next/link';\n\nexport default function Start() {\n  return <main><Link href="/">To the mug</Link></main>;\n}\n`,
  );
  const example = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  installProject(dir, tarball, example);
  const built = start(process.execPath, [nextBin(dir), 'build'], { cwd: dir, env: NEXT_QUIET });
  assert.equal(await built.exitCode(), 0, built.output());
}

/**
 * The built app: the one `npm test` built for the run (SHARED_NEXT_APP), else one built here
 * into `workspace/next`.
 */
export async function nextApp(workspace: string): Promise<string> {
  const shared = process.env[SHARED_NEXT_APP];
  if (shared) {
    assert.ok(
      existsSync(join(shared, '.next/BUILD_ID')),
      `${SHARED_NEXT_APP}=${shared} holds no built app: its build step failed (see "next app")`,
    );
    return shared;
  }
  const dir = join(workspace, 'next');
  await buildNextApp(dir, workspace);
  return dir;
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node --import tsx test/runtimes/next-app.ts DIR');
    process.exit(2);
  }
  const workspace = `${dir}.work`;
  mkdirSync(workspace, { recursive: true });
  try {
    await buildNextApp(dir, workspace);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  console.log(`next app: built in ${dir}`);
}
