// Child processes a test starts (a redis-server, a handler instance): whatever ends this
// process (a failed assertion, the runner's timeout), none outlives it.
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** SIGKILLs `child` when this process exits, if it is still running then. */
export function killAtExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Resolves once `child` has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
