// The servers a test file starts must not outlive that file's process, however the process
// ends: Ctrl-C on `npm test` does not reach a PostgreSQL, which runs in a process group of its
// own, and a killed process runs no exit handler. Each server left behind kept its memory (and
// its port) until someone found it; each folder (a server's data, a shop's build), its disk.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { until } from '../../shared/until.ts';
import { exited } from './children.ts';

const support = (file: string) => JSON.stringify(new URL(file, import.meta.url).href);

/** The processes below `pid` (its children, theirs, ...), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  for (let i = -1; i < found.length; i += 1) {
    const parent = i < 0 ? pid : found[i];
    for (const [child, ppid] of parentOf) if (ppid === parent) found.push(child);
  }
  return found;
}

test('a test process killed with SIGKILL leaves none of the servers it started running, nor their folders', async () => {
  const script = `
    const { startPostgres, startPgBouncer } = await import(${support('./postgres-server.ts')});
    const { startRedisServer } = await import(${support('./redis-server.ts')});
    const { temporaryFolder } = await import(${support('./children.ts')});
    const [pg, redis] = await Promise.all([startPostgres(), startRedisServer()]);
    const bouncer = await startPgBouncer(pg);
    const build = temporaryFolder('pw-shop-');
    const folders = [dirname(pg.dir), redis.dir, bouncer.dir, build.dir];
    console.log(JSON.stringify({ folders }));
    setInterval(() => {}, 60_000);
  `;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { dirname } from 'node:path';${script}`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const { folders } = await new Promise<{ folders: string[] }>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code) => reject(new Error(`it ended (${code}) before the servers ran`)));
  });
  const started = descendants(child.pid ?? 0);
  const left = () => started.filter((pid) => existsSync(`/proc/${pid}`));
  const kept = () => folders.filter((folder) => existsSync(folder));
  const named = () =>
    left()
      .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' '))
      .join('; ');
  try {
    // runuser and postgres with its backends, redis-server, and the shells that watch them.
    assert.ok(started.length >= 5, `the servers run while their test process does: ${named()}`);
    child.kill('SIGKILL');
    await exited(child);
    await until(
      () => `every process it started to end; still running: ${named()}`,
      () => left().length === 0,
    );
    assert.equal(folders.length, 4);
    await until(
      () => `every folder it made to go; still there: ${kept().join(', ')}`,
      () => kept().length === 0,
    );
  } finally {
    for (const pid of left()) process.kill(pid, 'SIGKILL');
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
});
