// `payment-widget check-page URL [--baseline FILE] [--update]`: records a payment page's
// security headers and scripts as a baseline the first time (or with --update), and on every
// later run compares the page with it: exit 0 when nothing changed, 1 with each difference
// printed, 2 when the page could not be checked. For a weekly job (or a more frequent one).
// Built to dist/node/check-page-cli.js (bin/payment-widget.js runs it); during development
// `node src/server/page/check-cli.ts check-page URL` runs the same file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHECK_LIMITS, differences, type PageSnapshot, snapshotPage } from './check.ts';
import type { BuiltFiles } from './manifest.ts';

/**
 * The package's dist/integrity.json, every file's hash: beside the built command's folder
 * (dist/node/check-page-cli.js), or in dist/ from the sources (this file). Read from the
 * file, not carried in the Node build as widgetTags()'s two hashes are (vite.node.config.ts):
 * this command runs on Node only, in the installed package.
 */
function packageManifest(): BuiltFiles {
  for (const path of ['../integrity.json', '../../../dist/integrity.json']) {
    const file = new URL(path, import.meta.url);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as BuiltFiles;
  }
  throw new Error('dist/integrity.json is missing: run `npm run build` first');
}

const USAGE = `Usage: payment-widget check-page URL [--baseline FILE] [--update] [--timeout MS]

Fetches the payment page at URL, its security headers and every script it loads (the widget's
own files beside its bundle included, checked against the package's dist/integrity.json), and
compares them with the baseline: exit 0 when nothing changed, 1 with each difference, 2 when
the page could not be read. The first run (or --update) records the baseline.
  --baseline  the baseline file (default payment-page.baseline.json)
  --update    record the page as it is now as the baseline
  --timeout   each request's time in milliseconds (default ${CHECK_LIMITS.timeoutMs})`;

function fail(message: string): never {
  process.stderr.write(`payment-widget: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, url, ...rest] = positionals;
  // The package's other command, which a developer may well look for here.
  if (command === 'sandbox') fail('the sandbox is a command of its own: npx payment-sandbox');
  if (command !== 'check-page') fail(`unknown command ${command ?? '(none)'}`);
  if (url === undefined || rest.length > 0) fail('check-page takes one URL');
  if (!/^https?:\/\//i.test(url)) fail(`URL must be http(s): ${url}`);
  const timeoutMs = values.timeout === undefined ? CHECK_LIMITS.timeoutMs : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) fail('--timeout must be milliseconds');
  const file = values.baseline ?? 'payment-page.baseline.json';

  const now = await snapshotPage(url, packageManifest(), { ...CHECK_LIMITS, timeoutMs });
  if (values.update || !existsSync(file)) {
    writeFileSync(file, `${JSON.stringify(now, null, 2)}\n`);
    process.stdout.write(
      `payment-widget: ${file} records ${now.url}: ${Object.keys(now.headers).length} security headers, ${now.scripts.length} scripts\n`,
    );
    for (const problem of now.problems) process.stdout.write(`  ! ${problem}\n`);
    return now.problems.length === 0 ? 0 : 1;
  }
  const before = JSON.parse(readFileSync(file, 'utf8')) as PageSnapshot;
  const found = differences(before, now);
  if (found.length === 0) {
    process.stdout.write(`payment-widget: ${now.url} is as ${file} recorded it\n`);
    return 0;
  }
  process.stdout.write(`payment-widget: ${now.url} differs from ${file}:\n`);
  for (const difference of found) process.stdout.write(`  - ${difference}\n`);
  process.stdout.write('Look at each; if the change was yours, record it with --update.\n');
  return 1;
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      baseline: { type: 'string' },
      update: { type: 'boolean' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `payment-widget: the page could not be checked: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  },
);
