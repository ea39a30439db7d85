// `payment-sandbox trigger`, run as a child process against a sandbox started here: each
// scenario prints the checkout id, leaves the checkout in the promised state, and its
// notification reaches --webhook; bad usage exits 2 with the usage, an unreachable sandbox 1.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, beforeEach, describe, test } from 'node:test';
import { runTrigger } from '../../../src/sandbox/trigger.ts';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import {
  expectValid,
  type Harness,
  postForm,
  startSandbox,
  startWebhookReceiver,
  type WebhookReceiver,
} from './helpers.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function trigger(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['src/sandbox/cli.ts', 'trigger', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += String(d);
  });
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let h: Harness;
let hooks: WebhookReceiver;

/** Runs a scenario that must succeed; returns the lines it printed. */
async function scenario(name: string): Promise<string[]> {
  const run = await trigger([name, '--base-url', h.sandbox.url, '--webhook', hooks.url]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.match(lines[0] ?? '', /^[0-9a-f-]{36}$/, run.stdout);
  return lines;
}

async function checkout(id: string) {
  return expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
}

async function notified(id: string): Promise<void> {
  await hooks.waitFor(1);
  assert.deepEqual(
    hooks.received.map((r) => r.body),
    [{ event_type: 'CHECKOUT_STATUS_CHANGED', id }],
  );
}

describe('payment-sandbox trigger', () => {
  before(async () => {
    h = await startSandbox();
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await h.sandbox.close();
    await hooks.close();
  });
  beforeEach(() => {
    hooks.received.length = 0;
  });

  for (const [name, status] of [
    ['checkout.paid', 'PAID'],
    ['checkout.failed', 'FAILED'],
    ['checkout.expired', 'EXPIRED'],
    ['boleto.paid', 'PAID'],
  ] as const) {
    test(`${name}: the checkout is ${status} and --webhook is notified`, async () => {
      const [id, ...rest] = await scenario(name);
      assert.deepEqual(rest, []);
      const c = await checkout(id!);
      assert.equal(c.status, status);
      assert.equal(c.return_url, hooks.url);
      if (name === 'boleto.paid') assert.equal(c.currency, 'BRL');
      await notified(id!);
    });
  }

  test('checkout.3ds: left at its challenge, whose printed URL opens in a browser', async () => {
    const [id, challengeUrl] = await scenario('checkout.3ds');
    assert.equal((await checkout(id!)).status, 'PENDING');
    const page = await fetch(challengeUrl!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Complete authentication/);
    // Completing the challenge as the shopper would settles it and notifies --webhook.
    const md = new URL(challengeUrl!).searchParams.get('MD')!;
    await postForm(`${h.sandbox.url}/v0.1/checkouts/${id}/complete_payment`, {
      MD: md,
      PaRes: 'Y',
    });
    assert.equal((await checkout(id!)).status, 'PAID');
    await notified(id!);
  });

  /** The command in this process: the messages and exit codes without a child's start-up. */
  async function inProcess(args: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runTrigger(
      args,
      (line) => {
        stdout += `${line}\n`;
      },
      (line) => {
        stderr += `${line}\n`;
      },
    );
    return { code, stdout, stderr };
  }

  test('bad usage exits 2 with a clear message and the usage', async () => {
    const child = await trigger(['checkout.refunded']);
    assert.equal(child.code, 2, child.stderr);
    assert.match(child.stderr, /unknown scenario checkout\.refunded/);
    const cases: [string[], RegExp][] = [
      [[], /name a scenario/],
      [['checkout.paid', '--webhook', 'ftp://example.com/x'], /--webhook must be an http\(s\) URL/],
      [['checkout.paid', '--base-url', 'not a url'], /--base-url must be an http\(s\) URL/],
      [['checkout.paid', '--key', 'sk_live_abc'], /--key must be a sandbox key/],
      [['checkout.paid', '--colour'], /Unknown option '--colour'/],
      [['checkout.paid', 'extra'], /unexpected extra/],
    ];
    for (const [args, message] of cases) {
      const run = await inProcess(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.match(run.stderr, /Usage: payment-sandbox trigger SCENARIO/);
      assert.equal(run.stdout, '');
      assert.ok(!run.stderr.includes('sk_live_abc'), 'the key is not repeated');
    }
  });

  test('a sandbox that is not there, or refuses the key, exits 1 saying so', async () => {
    const gone = await startWebhookReceiver();
    await gone.close();
    const base = new URL(gone.url).origin;
    const down = await trigger(['checkout.paid', '--base-url', base]);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /ECONNREFUSED \(is the sandbox running at/);
    const refused = await inProcess([
      'checkout.paid',
      '--base-url',
      h.sandbox.url,
      '--key',
      'sk_test_nope',
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /HTTP 401: invalid access token/);
    assert.ok(!refused.stderr.includes('sk_test_nope'));
  });
});
