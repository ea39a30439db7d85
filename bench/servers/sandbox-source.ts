// Which sandbox a bench child runs: this checkout's, or with BENCH_SANDBOX_SOURCE (set by
// BENCH_BASELINE) another checkout's src/sandbox/index.ts.
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

type SandboxModule = typeof import('../../src/sandbox/index.ts');

/** The sandbox module that BENCH_SANDBOX_SOURCE names, else this checkout's. */
export async function sandboxModule(): Promise<SandboxModule> {
  const source = process.env.BENCH_SANDBOX_SOURCE;
  return source !== undefined && isAbsolute(source)
    ? await import(pathToFileURL(source).href)
    : await import('../../src/sandbox/index.ts');
}
