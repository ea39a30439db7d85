// What every runtime test needs: the runtime's binary from test/runtimes/node_modules, a
// free loopback port, the runtime started as a child whose output is kept, and a card
// payment through the handler it serves, with onPaid counted from that output; and, for
// the pages built by Next.js and Vite, the widget read in Dutch with the console watched.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { cardBody } from '../node/support/cards.ts';
import { exited, killAtExit } from '../node/support/children.ts';
import { until } from '../shared/until.ts';

export { freePort } from '../../scripts/free-port.mjs';

const RUNTIMES = fileURLToPath(new URL('./', import.meta.url));

/**
 * The real binary of a runtime installed from npm (`bun`, `deno`, `workerd`), found in the
 * platform package its wrapper lists as an optional dependency. The wrapper's own `bin`
 * entry is not used: Bun's is a stub until its install script runs (CI installs with
 * --ignore-scripts), and Deno's is a Node script that would stand between the test and
 * the process it stops.
 */
export function runtimeBinary(wrapper: string, name: string): string {
  const modules = join(RUNTIMES, 'node_modules');
  const manifest = join(modules, wrapper, 'package.json');
  if (!existsSync(manifest)) {
    throw new Error(`${wrapper} is not installed: npm --prefix test/runtimes ci (npm test does)`);
  }
  const { optionalDependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  for (const platformPackage of Object.keys(optionalDependencies)) {
    for (const file of [join('bin', name), name]) {
      const path = join(modules, platformPackage, file);
      if (existsSync(path)) return path;
    }
  }
  throw new Error(`${wrapper}: no binary for ${process.platform}-${process.arch} was installed`);
}

export interface Running {
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with its exit code once it has exited by itself. */
  exitCode(): Promise<number | null>;
  /** Stops it and waits until it has exited. */
  stop(): Promise<void>;
}

/** Starts a runtime; whatever ends this process, the child does not outlive it. */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Running {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAtExit(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return {
    output: () => output,
    exitCode: () => exited(child).then(() => child.exitCode),
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Resolves once `url` answers at all (any status), failing with what the runtime printed. */
export async function answering(url: string, running: Running, timeoutMs = 60_000) {
  await until(
    () => `${url} to answer; the runtime printed:\n${running.output()}`,
    () =>
      fetch(url).then(
        (response) => response.body?.cancel().then(() => true) ?? true,
        () => false,
      ),
    timeoutMs,
  );
}

/** The lines the shop's onPaid printed, as checkout ids. */
export function paidLines(output: string, pattern: RegExp): string[] {
  return [...output.matchAll(pattern)].map((match) => match[1] ?? '');
}

/**
 * Waits until the provider's webhook for checkout `id` got a 2xx: the handler answers one
 * only once the outcome's hook has run (it waits for it, or finds it done), so after it
 * every report of this payment (the PUT's answer, the confirmation, the webhook) has
 * been handled and onPaid's count for it is final. `log` is the sandbox's, for the message.
 */
export async function webhookDelivered(sandbox: Sandbox, id: string, log: string[]): Promise<void> {
  await until(
    () => `a 2xx webhook for ${id}; the sandbox logged:\n${log.join('\n')}`,
    async () => {
      const res = await fetch(`${sandbox.url}/sandbox/webhook-deliveries`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      });
      const deliveries = (await res.json()) as { payload: { id?: unknown }; state: string }[];
      return deliveries.some((d) => d.payload.id === id && d.state === 'delivered');
    },
    30_000,
  );
}

/**
 * A card checkout through the handler at `payments` (its mount URL), as the widget makes
 * it: create, process with a card that pays without a challenge, confirm. Returns its id.
 */
export async function payByCard(payments: string, origin: string): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${payments}${path}`, {
      method,
      headers: { origin, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const created = await call('POST', '/checkouts', { order: { sku: 'poster' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.amount, 10);
  const id = String(created.body.id);
  const processed = await call('PUT', `/checkouts/${id}`, cardBody('4200000000000091'));
  assert.equal(processed.status, 200, JSON.stringify(processed.body));
  assert.equal(processed.body.status, 'PAID');
  const confirmed = await call('GET', `/checkouts/${id}`);
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  assert.equal(confirmed.body.status, 'PAID');
  return id;
}

/** The sandbox's settings, as the fixtures read them. */
export function providerSettings(sandbox: Sandbox): Record<string, string> {
  return {
    PROVIDER_BASE_URL: sandbox.url,
    PROVIDER_API_KEY: sandbox.apiKey,
    MERCHANT_CODE: sandbox.merchantCode,
  };
}

/**
 * `page` shows the widget in Dutch, read as a shopper reads it: its labels and the Pay
 * button with the amount written the Dutch way; and the console said nothing went wrong
 * (a locale that cannot load says so there).
 */
export async function showsDutch(page: Page, amount: string, errors: string[]): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^Betaal €\\s${amount}$`) }).waitFor();
  for (const label of ['Kaartnummer', 'Vervaldatum', 'Beveiligingscode']) {
    await page.getByLabel(label).waitFor();
  }
  assert.deepEqual(errors, []);
}

/** The console's errors, and requests that failed, on `page` from now on. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('requestfailed', (request) => errors.push(`failed: ${request.url()}`));
  return errors;
}
