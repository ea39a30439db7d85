// A throwaway PostgreSQL cluster per test file: `initdb` into a fresh temporary folder (gone
// with the test's process, if `stop` did not remove it), then `postgres` on a free loopback
// port with what makes a test server slow switched off (fsync, synchronous commit, full-page
// writes: a crash of the machine is not what these tests are about; a crash of the server
// is, and PostgreSQL recovers from its WAL either way). Also a streaming replica of one
// (`pg_basebackup -R`), promoted on demand, and PgBouncer in transaction mode in front of
// one. Debian's `postgresql` and `pgbouncer` (`.ci/run` installs them when missing).
// `initdb`, `postgres` and `pgbouncer` refuse to run as root: where this process is root they
// run as the `postgres` user, which owns their folders.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../scripts/free-port.mjs';
import { scaled } from '../../shared/until.ts';
import { signalWhenGone, type TemporaryFolder, temporaryFolder } from './children.ts';

const execute = promisify(execFile);
const READY_TIMEOUT_MS = scaled(30_000);

/** The newest PostgreSQL that Debian installed. */
function bin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new Error(
      'PostgreSQL is not installed: apt-get install postgresql pgbouncer (.ci/run does)',
    );
  }
  return join(root, versions[0], 'bin', name);
}

const asRoot = process.getuid?.() === 0;
/** A command as the `postgres` user where this process is root. */
const as = (file: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];

/** A temporary folder the server's user owns, removed when this process is gone. */
function ownFolder(prefix: string): TemporaryFolder {
  const folder = temporaryFolder(prefix);
  if (asRoot) {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (line === undefined) throw new Error('no postgres user: apt-get install postgresql');
    const [, , uid, gid] = line.split(':');
    chownSync(folder.dir, Number(uid), Number(gid));
  }
  return folder;
}

/** Process groups still running, ended when this process exits whatever ends it. */
const groups = new Set<number>();
process.once('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGQUIT');
    } catch {
      // Gone already.
    }
  }
});

/** Spawns `file` in a process group of its own; resolves once its log says `ready`. */
function launch(file: string, args: string[], ready: RegExp, what: string): Promise<ChildProcess> {
  const [command, argv] = as(file, args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    groups.add(pid);
    // Its group: the server's backends are in it.
    child.once('exit', signalWhenGone(-pid, 'QUIT'));
  }
  child.once('exit', () => {
    if (pid !== undefined) groups.delete(pid);
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      signal(child, 'SIGKILL');
      reject(new Error(`${what} not ready after ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.stdout?.off('data', onData);
      // Keep draining its log so a full pipe never blocks it.
      child.stderr?.resume();
      child.stdout?.resume();
      resolve(child);
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${what} could not start (${error.message})`));
    });
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? sig}):\n${output}`));
    });
  });
}

/** Sends `sig` to the child's whole group (runuser, the server, its backends). */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, sig);
  } catch {
    // Gone already.
  }
}

/**
 * The postmaster of the cluster in `dir` and the processes it started: each backend is a
 * session of its own, out of reach of a signal to the postmaster's group.
 */
function serverPids(dir: string): number[] {
  const postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [...children, postmaster];
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

export interface PostgresServer {
  port: number;
  dir: string;
  /** `postgres://postgres@127.0.0.1:{port}/postgres` */
  url: string;
  /** Stops it at once, as a crash would (`-m immediate`: no checkpoint; it recovers from WAL). */
  crash(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it takes connections. */
  start(): Promise<void>;
  /** Makes a replica the primary (`pg_ctl promote`); resolves once it takes writes. */
  promote(): Promise<void>;
  /**
   * Stops it answering with every connection left open (SIGSTOP to it and its backends), as a
   * hung machine or a lost network would; `thaw()` lets it go on.
   */
  freeze(): void;
  thaw(): void;
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>;
}

const SETTINGS = [
  '-c',
  'fsync=off',
  '-c',
  'synchronous_commit=off',
  '-c',
  'full_page_writes=off',
  '-c',
  'max_connections=300',
  '-c',
  'wal_level=replica',
  '-c',
  'max_wal_senders=4',
  '-c',
  'logging_collector=off',
];

function server(dir: string, port: number, first: ChildProcess): PostgresServer {
  let current: ChildProcess | undefined = first;
  const up = () =>
    launch(
      bin('postgres'),
      ['-D', dir, '-p', String(port), '-h', '127.0.0.1', '-k', dir, ...SETTINGS],
      /database system is ready to accept (read-only )?connections/,
      `postgres on ${port}`,
    );
  const down = async (sig: NodeJS.Signals) => {
    if (current === undefined) return;
    const child = current;
    current = undefined;
    // SIGQUIT to the postmaster is `-m immediate`, SIGINT `-m fast`.
    // A frozen one (freeze()) goes on first, to take the signal.
    signal(child, 'SIGCONT');
    signal(child, sig);
    await exited(child);
  };
  return {
    port,
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => down('SIGQUIT'),
    async start() {
      current = await up();
    },
    freeze: () => {
      for (const pid of serverPids(dir)) process.kill(pid, 'SIGSTOP');
    },
    thaw: () => {
      for (const pid of serverPids(dir)) process.kill(pid, 'SIGCONT');
      // runuser stops itself when the server it waits for stops.
      if (current !== undefined) signal(current, 'SIGCONT');
    },
    async promote() {
      const [command, args] = as(bin('pg_ctl'), ['promote', '-w', '-D', dir]);
      await execute(command, args);
    },
    async stop() {
      await down('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function started(dir: string): Promise<PostgresServer> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      const child = await launch(
        bin('postgres'),
        ['-D', dir, '-p', String(port), '-h', '127.0.0.1', '-k', dir, ...SETTINGS],
        /database system is ready to accept (read-only )?connections/,
        `postgres on ${port}`,
      );
      return server(dir, port, child);
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

/** `pg`, whose stop also removes the folder its data folder is in. */
function inFolder(pg: PostgresServer, folder: TemporaryFolder): PostgresServer {
  const stop = pg.stop;
  return {
    ...pg,
    stop: async () => {
      await stop();
      folder.remove();
    },
  };
}

/** A new cluster, started; its `postgres` database is trusted from loopback. */
export async function startPostgres(): Promise<PostgresServer> {
  const folder = ownFolder('pw-pg-');
  const data = join(folder.dir, 'data');
  const [command, args] = as(bin('initdb'), [
    '-D',
    data,
    '--auth=trust',
    '--no-sync',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-instructions',
  ]);
  await execute(command, args);
  // Replicas connect from loopback for replication too (trusted, like every other connection).
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
  );
  return inFolder(await started(data), folder);
}

/** A streaming replica of `primary`, started (read-only until promoted). */
export async function startReplica(primary: PostgresServer): Promise<PostgresServer> {
  const folder = ownFolder('pw-pg-replica-');
  const data = join(folder.dir, 'data');
  const [command, args] = as(bin('pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
  ]);
  await execute(command, args);
  return inFolder(await started(data), folder);
}

export interface Bouncer {
  port: number;
  /** Its temporary folder: config and socket. */
  dir: string;
  url: string;
  stop(): Promise<void>;
}

/** PgBouncer in transaction mode in front of `pg`: each transaction may get another server connection. */
export async function startPgBouncer(pg: PostgresServer): Promise<Bouncer> {
  const folder = ownFolder('pw-pgbouncer-');
  const { dir } = folder;
  const port = await freePort();
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `postgres = host=127.0.0.1 port=${pg.port} dbname=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 10',
      'max_client_conn = 200',
      // postgres.js asks for it at start; a pooler in transaction mode keeps no session setting.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  const child = await launch(
    '/usr/sbin/pgbouncer',
    [join(dir, 'pgbouncer.ini')],
    /process up|listening on/,
    `pgbouncer on ${port}`,
  );
  return {
    port,
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      signal(child, 'SIGINT');
      await exited(child);
      folder.remove();
    },
  };
}
