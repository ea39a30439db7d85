// What `--data` costs: checkout creates against `payment-sandbox` in memory and with a data
// file under each `--fsync` policy, side by side in one run. Each target is the real CLI in its
// own process on a loopback port; the rounds take turns so that a busy moment of the machine
// falls on every target alike. Every target keeps its process (and its file) for all rounds,
// so each holds as many checkouts as the others when measured.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectStatus, type LoadReport, runLoad } from './load.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface JournalShape {
  /** Creates per round and target. */
  ops: number;
  concurrency: number;
  rounds: number;
}

export interface JournalTarget {
  name: string;
  /** Creates per second, one per round. */
  rates: number[];
  failed: number;
  firstError?: string;
  /** The data file's size at the end, when there is one. */
  fileBytes?: number;
}

export interface JournalReport {
  targets: JournalTarget[];
  /** `--data` (everysec) / in memory, one per round. */
  everysecRatio: number[];
}

interface Running {
  child: ChildProcess;
  url: string;
}

async function startSandbox(args: string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--quiet', ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no base URL in 30 s: ${out}`)), 30_000);
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const match = /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
  return { child, url };
}

async function stop(running: Running): Promise<void> {
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGINT');
  await exited;
}

function creates(url: string, shape: JournalShape, round: number): Promise<LoadReport> {
  return runLoad({
    total: shape.ops,
    concurrency: shape.concurrency,
    timeLimitMs: 60_000,
    async op(client, index) {
      const res = await client.request('create', `${url}/v0.1/checkouts`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_sandbox' },
        body: {
          checkout_reference: `bench-${round}-${index}`,
          amount: 10,
          currency: 'EUR',
          merchant_code: 'MSANDBOX1',
          description: 'A checkout of the journal bench',
          return_url: 'https://shop.example/hooks',
        },
      });
      expectStatus(res, 201, 'create');
    },
  });
}

export async function measureJournal(shape: JournalShape): Promise<JournalReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const specs = [
    { name: 'in memory', args: [] as string[] },
    { name: '--data, --fsync everysec', file: 'everysec.jsonl', args: ['--fsync', 'everysec'] },
    { name: '--data, --fsync always', file: 'always.jsonl', args: ['--fsync', 'always'] },
    { name: '--data, --fsync no', file: 'no.jsonl', args: ['--fsync', 'no'] },
  ];
  const running: Running[] = [];
  try {
    for (const spec of specs) {
      const data = spec.file === undefined ? [] : ['--data', join(dir, spec.file)];
      running.push(await startSandbox([...data, ...spec.args]));
    }
    const targets: JournalTarget[] = specs.map((s) => ({ name: s.name, rates: [], failed: 0 }));
    // A warm-up round per target, not counted: the JIT and the sockets settle.
    for (const r of running) await creates(r.url, { ...shape, ops: Math.min(500, shape.ops) }, -1);
    for (let round = 0; round < shape.rounds; round += 1) {
      for (const [i, r] of running.entries()) {
        const report = await creates(r.url, shape, round);
        const target = targets[i]!;
        target.rates.push(report.opsPerSecond);
        target.failed += report.failed;
        if (report.firstError !== undefined) target.firstError ??= report.firstError;
      }
    }
    for (const r of running.splice(0)) await stop(r);
    for (const [i, spec] of specs.entries()) {
      if (spec.file !== undefined) targets[i]!.fileBytes = statSync(join(dir, spec.file)).size;
    }
    const memory = targets[0]!.rates;
    const everysec = targets[1]!.rates;
    return { targets, everysecRatio: everysec.map((rate, i) => rate / memory[i]!) };
  } finally {
    for (const r of running) r.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
