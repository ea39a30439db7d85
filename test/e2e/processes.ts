/**
 * Node processes an end-to-end test starts as a user would (the README's backend,
 * `npm start`'s script), on ports the OS just gave out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { scaled } from '../shared/until.ts';

export { freePort } from '../../scripts/free-port.mjs';

const ROOT = new URL('../../', import.meta.url);

/**
 * Runs `node args` from the repository's root (or `cwd`) until it prints a line matching
 * `ready` (within `readyMs` on an idle machine, default 20 s, scaled to this one); the caller
 * stops it.
 */
export async function run(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  readyMs = 20_000,
  cwd: string | URL = new URL('.', ROOT),
): Promise<{ child: ChildProcess; output: () => string; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const allowedMs = scaled(readyMs);
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Stopped, or a failing test would wait on it to the end of its file.
      child.kill('SIGTERM');
      reject(new Error(`not ready in ${allowedMs / 1000} s:\n${output}`));
    }, allowedMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${output}`));
    });
  });
  return { child, output: () => output, match };
}

export function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
