// Child processes a test starts (a redis-server, a PostgreSQL, a handler instance): whatever
// ends this process (a failed assertion, the runner's timeout, Ctrl-C, SIGKILL), none
// outlives it.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Sends `signal` to `pid` (a process group's id, negative, for a whole group) once this process
 * is gone, however it ended. An 'exit' handler runs only when this process exits by itself:
 * Ctrl-C reaches the terminal's foreground group, which a detached child has left, and SIGKILL
 * runs nothing. So a shell, deaf to SIGHUP, SIGINT and SIGTERM, waits for the end of a pipe only
 * this process holds (Node opens it close-on-exec: no other child inherits it), which the kernel
 * closes when this process dies. Only a SIGKILL to the shell as well gets past it. Call the
 * returned function once the child has exited: it ends the shell, which then never signals an
 * id that has gone to another process.
 */
export function signalWhenGone(pid: number, signal: 'KILL' | 'QUIT'): () => void {
  const script = `trap "" HUP INT TERM; read _; kill -${signal} "$1"`;
  const watchdog = spawn('sh', ['-c', script, 'sh', `${pid}`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // Neither it nor its pipe keeps this process's event loop alive.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return () => watchdog.kill('SIGKILL');
}

/** SIGKILLs `child` when this process exits or dies, if it is still running then. */
export function killAtExit(child: ChildProcess): void {
  running.add(child);
  const calledOff = child.pid === undefined ? () => {} : signalWhenGone(child.pid, 'KILL');
  child.once('exit', () => {
    running.delete(child);
    calledOff();
  });
}

/** Resolves once `child` has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
