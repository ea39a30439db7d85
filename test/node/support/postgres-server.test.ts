// The throwaway PostgreSQL a test file starts must not outlive that file's process, however
// the process ends: Ctrl-C on `npm test` reaches the terminal's process group, which the
// server has left, and a killed process runs no exit handler. Each server left behind kept
// its memory and its folder until someone found it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { until } from '../../shared/until.ts';
import { exited } from './children.ts';

const SERVER = new URL('./postgres-server.ts', import.meta.url).href;

test('a test process killed with SIGKILL leaves no PostgreSQL running', async () => {
  const script = `
    const { startPostgres } = await import(${JSON.stringify(SERVER)});
    const pg = await startPostgres();
    console.log(JSON.stringify({ dir: pg.dir, pid: Number(readFileSync(pg.dir + '/postmaster.pid', 'utf8').split('\\n')[0]) }));
    setInterval(() => {}, 60_000);
  `;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { readFileSync } from 'node:fs';${script}`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const started = await new Promise<{ dir: string; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code) =>
      reject(new Error(`the process ended (${code}) before starting it`)),
    );
  });
  const alive = () => existsSync(`/proc/${started.pid}`);
  try {
    assert.ok(alive(), 'the server runs while its test process does');
    child.kill('SIGKILL');
    await exited(child);
    await until(
      `PostgreSQL ${started.pid} to stop after its test process was killed`,
      () => !alive(),
    );
  } finally {
    if (alive()) process.kill(started.pid, 'SIGQUIT');
    await until(`PostgreSQL ${started.pid} to stop`, () => !alive());
    rmSync(dirname(started.dir), { recursive: true, force: true });
  }
});
