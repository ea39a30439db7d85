// The server's code the playground shows beside each shop page, as a developer copies it into
// a file of their own: it type-checks against the package's types with strict flags, starts
// without an option missing, and makes the checkout at the terms the page sells at (the
// amount, the currency, 3-D Secure as a full page or inside the widget), for the basket in
// the shopper's cookie. The import of `payment-widget/server` is pointed at this checkout's
// sources; nothing else in the copied text is changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverCode, type Terms } from '../../../site/playground/code.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

const REPO = new URL('../../../', import.meta.url);
const SERVER_ENTRY = fileURLToPath(new URL('src/server/index.ts', REPO));
const TSC = fileURLToPath(new URL('node_modules/.bin/tsc', REPO));
const PAGES: Terms[] = [
  { amount: '10.00', currency: 'EUR', description: 'Sandbox poster', redirect: true },
  { amount: '11.50', currency: 'BRL', description: 'Pôster "sandbox"', redirect: false },
];

let sandbox: Sandbox | undefined;
let dir = '';

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'playground-code-'));
  process.env.PROVIDER_BASE_URL = sandbox.url;
  process.env.PROVIDER_API_KEY = sandbox.apiKey;
  process.env.MERCHANT_CODE = sandbox.merchantCode;
});

after(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The copied code in a file of its own, `payment-widget/server` being this checkout's sources. */
function copied(terms: Terms, name: string): string {
  const code = serverCode(terms);
  assert.match(code, /from 'payment-widget\/server';/);
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, code.replace("'payment-widget/server'", JSON.stringify(SERVER_ENTRY)));
  return file;
}

/**
 * What tsc says of each file in `files`, with strict flags as a merchant's TypeScript project
 * would have them: one run for all, its lines naming the file.
 */
function typeErrors(files: string[]): string[] {
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    typeRoots: [fileURLToPath(new URL('node_modules/@types', REPO))],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    noEmit: true,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  // tsc names the files relative to its working directory: here, the copied files' own.
  const tsc = spawnSync(TSC, ['-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const said = `${tsc.stdout}${tsc.stderr}`;
  // Only what is said of the copied files: the package's sources are its own tsc's to check.
  return files.map((file) =>
    said
      .split('\n')
      .filter((line) => line.startsWith(`${basename(file)}(`))
      .join('\n'),
  );
}

describe("the playground's server code, copied", () => {
  let files: string[] = [];
  let errors: string[] = [];
  before(() => {
    files = PAGES.map((terms, index) => copied(terms, `server-${index}`));
    errors = typeErrors(files);
  });

  for (const [index, terms] of PAGES.entries()) {
    test(`type-checks and makes the page's checkout: ${terms.amount} ${terms.currency}`, async () => {
      const file = files[index] ?? assert.fail('the copied file');
      assert.equal(errors[index], '');

      const { payments } = (await import(pathToFileURL(file).href)) as {
        payments: (request: Request) => Promise<Response>;
      };
      const origin = 'http://127.0.0.1:3000';
      const basket = crypto.randomUUID();
      const answer = await payments(
        new Request(`${origin}/payments/checkouts`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', cookie: `basket=${basket}` },
          body: JSON.stringify({ order: { sku: 'poster' } }),
        }),
      );
      assert.equal(answer.status, 201, await answer.clone().text());
      const { id } = (await answer.json()) as { id: string };
      const made = (await (
        await fetch(`${sandbox?.url}/v0.1/checkouts/${id}`, {
          headers: { authorization: `Bearer ${sandbox?.apiKey}` },
        })
      ).json()) as Record<string, unknown>;
      assert.equal(made.amount, Number(terms.amount));
      assert.equal(made.currency, terms.currency);
      assert.equal(made.description, terms.description);
      assert.equal(made.checkout_reference, `order-${basket}`);
      // 3-D Secure as a full page needs the way back; inside the widget it has none.
      assert.equal(typeof made.redirect_url === 'string', terms.redirect);
    });
  }
});
