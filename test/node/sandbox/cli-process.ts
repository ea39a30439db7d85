// `payment-sandbox` as a real child process (the CLI from source, its types stripped by Node
// as the test files' are), for the tests that must kill it the way a crash would, or read
// what it prints.

import { type ChildProcess, spawn } from 'node:child_process';
import { until } from '../../shared/until.ts';

export interface CliProcess {
  child: ChildProcess;
  /** stdout and stderr as printed so far. */
  output(): string;
  exited: Promise<number | null>;
  /** Waits until the output matches `re`; its match. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

export function runCli(args: string[]): CliProcess {
  const child = spawn(process.execPath, ['src/sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async waitFor(re: RegExp, timeoutMs = 15_000) {
      await until(
        () => `${re}; output:\n${out}`,
        () => re.test(out),
        timeoutMs,
      );
      return re.exec(out)!;
    },
  };
}

/** Starts the CLI on a free loopback port; resolves with its base URL once it serves. */
export async function startCli(args: string[]): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli(['--port', '0', '--quiet', ...args]);
  const [, url] = await cli.waitFor(/base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/);
  return { cli, url: url! };
}

/** Ends the child as a crash would: SIGKILL, no chance to write anything more. */
export async function crash(cli: CliProcess): Promise<void> {
  cli.child.kill('SIGKILL');
  await cli.exited;
}
