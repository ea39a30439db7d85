// `payment-sandbox [--port 4010] [--host 127.0.0.1] [--data FILE] [--fsync everysec] [--country XX]`, and
// `payment-sandbox trigger SCENARIO ...` (trigger.ts) against a sandbox already running.
// Built to dist/node/sandbox-cli.js (bin/payment-sandbox.js imports it); during development
// `node --import tsx src/sandbox/cli.ts` runs the same file.

import { parseArgs } from 'node:util';
import { createSandbox, type Sandbox } from './index.ts';
import { FSYNC_POLICIES, isFsyncPolicy } from './state/journal.ts';
import { runTrigger } from './trigger.ts';

const USAGE = `Usage: payment-sandbox [--port 4010] [--host 127.0.0.1] [--data FILE] [--fsync everysec] [--country DE] [--quiet]
       payment-sandbox trigger SCENARIO [--base-url URL] [--key KEY] [--webhook URL]

Runs a local simulator of the payment provider's API, with its dashboard at the base URL.
  --port      port to listen on (default 4010; 0 picks a free one)
  --host      interface to bind (default 127.0.0.1; elsewhere the dashboard asks for the key)
  --data      keep state in this file across restarts: every change is in it before its answer leaves
  --fsync     when --data reaches the disk: always (before each answer), everysec (default),
              or no (the operating system decides); a crash of the process loses nothing in any
  --country   merchant country: BR allows installments, US requires a ZIP code (default DE)
  --quiet     no access log

trigger drives a running sandbox through one scenario (payment-sandbox trigger --help).`;

function fail(message: string): never {
  process.stderr.write(`payment-sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: {
    port?: string;
    host?: string;
    data?: string;
    fsync?: string;
    country?: string;
    quiet?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        fsync: { type: 'string' },
        country: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : 'bad arguments');
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port ?? '4010');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be 0 to 65535');
  const fsync = values.fsync ?? 'everysec';
  if (!isFsyncPolicy(fsync)) fail(`--fsync must be ${FSYNC_POLICIES.join(', ')}`);
  if (values.country !== undefined && !/^[A-Za-z]{2}$/.test(values.country)) {
    fail('--country must be a two-letter country code, e.g. BR');
  }

  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox({
      port,
      host: values.host ?? '127.0.0.1',
      ...(values.data !== undefined && { dataFile: values.data, fsync }),
      ...(values.country !== undefined && { country: values.country }),
      ...(!values.quiet && { log: (line: string) => process.stdout.write(`${line}\n`) }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`port ${port} is in use; pick another with --port`);
    fail(error instanceof Error ? error.message : 'could not start');
  }

  process.stdout.write(
    [
      'payment-sandbox is running',
      `  base URL:      ${sandbox.url}`,
      `  dashboard:     ${sandbox.url}/ (in a browser)`,
      `  API key:       ${sandbox.apiKey}`,
      `  merchant code: ${sandbox.merchantCode}`,
      ...(values.data ? [`  data file:     ${values.data} (fsync ${fsync})`] : []),
      // As the README's backend reads them: paste into a shell, or a .env file without `export`.
      'For your backend:',
      `  export PROVIDER_BASE_URL=${sandbox.url}`,
      `  export PROVIDER_API_KEY=${sandbox.apiKey}`,
      `  export MERCHANT_CODE=${sandbox.merchantCode}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping\n`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[2] === 'trigger') {
  process.exitCode = await runTrigger(
    process.argv.slice(3),
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  );
} else {
  await main();
}
