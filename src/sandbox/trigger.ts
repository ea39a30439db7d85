// `payment-sandbox trigger SCENARIO [--base-url URL] [--key KEY] [--webhook URL]`: drives a
// running sandbox through one scenario with the provider's public API and the /sandbox/
// routes (so it works against any running sandbox), sends the checkout's notifications to
// --webhook, prints the checkout id (and, for checkout.3ds, the challenge page's URL) and
// exits 0. Bad usage exits 2, a sandbox that refuses exits 1.

import { parseArgs } from 'node:util';

const SCENARIOS = {
  'checkout.paid': 'a card checkout, paid',
  'checkout.failed': 'a card checkout, declined (amount 11.00)',
  'checkout.expired': 'a checkout, deactivated (EXPIRED)',
  'checkout.3ds': 'a card checkout left at its 3DS challenge (prints the challenge URL)',
  'boleto.paid': 'a BRL boleto checkout, issued and then paid',
} as const;

type Scenario = keyof typeof SCENARIOS;

const TRIGGER_USAGE = `Usage: payment-sandbox trigger SCENARIO [--base-url URL] [--key KEY] [--webhook URL]

Drives a running sandbox through one scenario and prints the checkout id.
  --base-url  the sandbox (default http://127.0.0.1:4010)
  --key       its API key (default sk_test_sandbox)
  --webhook   where the checkout's status notifications go (its return_url)

Scenarios:
${Object.entries(SCENARIOS)
  .map(([name, what]) => `  ${name.padEnd(18)}${what}`)
  .join('\n')}`;

class UsageError extends Error {}

interface Target {
  baseUrl: string;
  key: string;
  webhook?: string;
}

type Json = Record<string, unknown>;

async function call(t: Target, method: string, path: string, body?: unknown): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(new URL(path, t.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${t.key}`,
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? 'no answer';
    throw new Error(`${method} ${path}: ${reason} (is the sandbox running at ${t.baseUrl}?)`);
  }
  const text = await res.text();
  let parsed: Json = {};
  try {
    parsed = text === '' ? {} : (JSON.parse(text) as Json);
  } catch {
    // Not JSON: reported below by status.
  }
  if (!res.ok) {
    const message = typeof parsed.message === 'string' ? `: ${parsed.message}` : '';
    throw new Error(`${method} ${path}: HTTP ${res.status}${message}`);
  }
  return parsed;
}

function expectStatus(checkout: Json, status: string): void {
  if (checkout.status !== status) {
    throw new Error(`the checkout ended ${String(checkout.status)}, not ${status}`);
  }
}

/** Runs one scenario; returns the lines to print. */
async function run(scenario: Scenario, t: Target): Promise<string[]> {
  // Only a sandbox has a clock: this refuses to drive anything else, and the card expiry
  // must lie ahead of the sandbox's now, which may have been moved on.
  const clock = await call(t, 'GET', '/sandbox/clock');
  const year = new Date(String(clock.now)).getUTCFullYear() + 3;
  const me = await call(t, 'GET', '/v0.1/me');
  const merchantCode = (me.merchant_profile as Json | undefined)?.merchant_code;
  const boleto = scenario === 'boleto.paid';
  const created = await call(t, 'POST', '/v0.1/checkouts', {
    checkout_reference: `trigger-${scenario}-${Date.now().toString(36)}`,
    amount: scenario === 'checkout.failed' ? 11 : 10,
    currency: boleto ? 'BRL' : 'EUR',
    merchant_code: merchantCode,
    description: `payment-sandbox trigger ${scenario}`,
    ...(t.webhook !== undefined && { return_url: t.webhook }),
  });
  const id = String(created.id);
  const path = `/v0.1/checkouts/${encodeURIComponent(id)}`;
  const card = (number: string) => ({
    payment_type: 'card',
    card: {
      name: 'Ada Lovelace',
      number,
      expiry_month: '12',
      expiry_year: String(year),
      cvv: '123',
      last_4_digits: number.slice(-4),
      type: 'VISA',
    },
  });
  switch (scenario) {
    case 'checkout.paid':
      expectStatus(await call(t, 'PUT', path, card('4200000000000091')), 'PAID');
      return [id];
    case 'checkout.failed':
      expectStatus(await call(t, 'PUT', path, card('4200000000000091')), 'FAILED');
      return [id];
    case 'checkout.expired':
      expectStatus(await call(t, 'DELETE', path), 'EXPIRED');
      return [id];
    case 'checkout.3ds': {
      const accepted = await call(t, 'PUT', path, card('4200000000000042'));
      const step = accepted.next_step as { url?: string; payload?: { MD?: string } } | undefined;
      if (!step?.url || !step.payload?.MD) throw new Error('no 3DS challenge was opened');
      // The challenge page also opens with GET, so the URL works in a browser's address bar.
      const challenge = new URL(step.url);
      challenge.searchParams.set('MD', step.payload.MD);
      return [id, challenge.href];
    }
    case 'boleto.paid':
      await call(t, 'PUT', path, { payment_type: 'boleto' });
      expectStatus(
        await call(t, 'POST', `/sandbox/checkouts/${encodeURIComponent(id)}/settle`, {
          status: 'PAID',
        }),
        'PAID',
      );
      return [id];
  }
}

function httpUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http(s) URL`);
  }
  return url.href;
}

function readArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        key: { type: 'string' },
        webhook: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : 'bad arguments');
  }
}

function parse(args: string[]): { scenario: Scenario; target: Target } {
  const parsed = readArgs(args);
  const [scenario, ...extra] = parsed.positionals;
  if (scenario === undefined) throw new UsageError('name a scenario');
  if (!Object.hasOwn(SCENARIOS, scenario)) throw new UsageError(`unknown scenario ${scenario}`);
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(' ')}`);
  const key = parsed.values.key ?? 'sk_test_sandbox';
  if (!key.startsWith('sk_test_'))
    throw new UsageError('--key must be a sandbox key (sk_test_...)');
  const webhook = parsed.values.webhook;
  return {
    scenario: scenario as Scenario,
    target: {
      baseUrl: httpUrl(parsed.values['base-url'] ?? 'http://127.0.0.1:4010', '--base-url'),
      key,
      ...(webhook !== undefined && { webhook: httpUrl(webhook, '--webhook') }),
    },
  };
}

/** The `trigger` command: returns the exit code. */
export async function runTrigger(
  args: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out(TRIGGER_USAGE);
    return 0;
  }
  let scenario: Scenario;
  let target: Target;
  try {
    ({ scenario, target } = parse(args));
  } catch (error) {
    err(`payment-sandbox trigger: ${(error as Error).message}\n\n${TRIGGER_USAGE}`);
    return 2;
  }
  try {
    for (const line of await run(scenario, target)) out(line);
    return 0;
  } catch (error) {
    err(`payment-sandbox trigger ${scenario}: ${(error as Error).message}`);
    return 1;
  }
}
