// Child processes a test starts (a redis-server, a PostgreSQL, a handler instance) and the
// temporary folders it makes (their data, a shop's build): whatever ends this process (a
// failed assertion, the runner's timeout, Ctrl-C, SIGKILL), none outlives it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Runs the shell command `command` (its argument: `$1`) once this process is gone, however it
 * ended. An 'exit' handler runs only when this process exits by itself: Ctrl-C reaches the
 * terminal's foreground group, which a detached child has left, and SIGKILL runs nothing. So a
 * shell, deaf to SIGHUP, SIGINT and SIGTERM, waits for the end of a pipe only this process
 * holds (Node opens it close-on-exec: no other child inherits it), which the kernel closes when
 * this process dies. Only a SIGKILL to the shell as well gets past it. The returned function
 * ends the shell: the command never runs then.
 */
function whenGone(command: string, argument: string): () => void {
  const script = `trap "" HUP INT TERM; read _; ${command}`;
  const watchdog = spawn('sh', ['-c', script, 'sh', argument], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // Neither it nor its pipe keeps this process's event loop alive.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return () => watchdog.kill('SIGKILL');
}

/**
 * Sends `signal` to `pid` (a process group's id, negative, for a whole group) once this process
 * is gone (`whenGone`). Call the returned function once the child has exited: the shell then
 * never signals an id that has gone to another process.
 */
export function signalWhenGone(pid: number, signal: 'KILL' | 'QUIT'): () => void {
  return whenGone(`kill -${signal} "$1"`, `${pid}`);
}

export interface TemporaryFolder {
  dir: string;
  /** Removes it now, and calls off its removal when this process is gone. */
  remove(): void;
}

/**
 * A new folder in the OS's temporary folder (`mkdtemp`, `prefix` first), removed once this
 * process is gone (`whenGone`) unless `remove()` removed it before, or `keep` (a developer's
 * KEEP_... to look into it afterwards) keeps it. A server killed at the same time may still
 * write into it as it ends: the shell tries once more a second later.
 */
export function temporaryFolder(prefix: string, { keep = false } = {}): TemporaryFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const calledOff = keep
    ? () => {}
    : whenGone('rm -rf -- "$1" 2>/dev/null || { sleep 1; rm -rf -- "$1"; }', dir);
  return {
    dir,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      calledOff();
    },
  };
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
