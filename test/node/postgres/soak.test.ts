// A soak of the PostgreSQL store: SOAK_BASKETS baskets (60 here; `SOAK_BASKETS=1000` for the
// long run) paid by shoppers through a round-robin balancer over three shop instances on one
// PostgreSQL, with the sandbox's webhooks dropped, duplicated and reordered, and one instance
// (in a process of its own) SIGKILLed inside its fourth hook's transaction. Then: no basket
// charged twice, every paid basket fulfilled by exactly one order row, and no shopper saw a
// 5xx.
import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient, postgresStoreSchema } from '../../../src/server/index.ts';
import { scaled, sleep, until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';
import { connect } from './clients.ts';
import { type SoakInstanceConfig, startInstance } from './soak-instance.ts';

const BASKETS = Number(process.env.SOAK_BASKETS ?? 60);
const SHOPPERS = 8;
const LEASE_MS = Math.ceil(scaled(2_000) / 1000) * 1000;

let sb: Sandbox;
let pg: PostgresServer;
const cleanup: (() => Promise<void>)[] = [];
// A listener left on a pooled client piles up on it, hook after hook, until Node warns.
const warnings: string[] = [];
process.on('warning', (w) => {
  if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message);
});

before(async () => {
  [sb, pg] = await Promise.all([
    createSandbox({ port: 0, webhook: { attempts: 30, initialDelayMs: 100, maxDelayMs: 1_000 } }),
    startPostgres(),
  ]);
  const admin = connect('pg', pg.url);
  await admin.query(
    `${postgresStoreSchema()}CREATE TABLE orders (basket text NOT NULL, checkout_id text NOT NULL, by text NOT NULL);`,
  );
  await admin.close();
});

after(async () => {
  for (const step of cleanup.reverse()) await step();
  await pg?.stop();
  await sb?.close();
});

interface Upstream {
  name: string;
  port: number;
  alive: boolean;
  /** Whether shoppers' requests go there; the balancer stops sending them before a kill. */
  shoppers: boolean;
  /** Shoppers' requests under way there. */
  inflight: number;
}

/** Round-robin over the live upstreams; a refused connection marks one dead and tries the next. */
async function startBalancer(upstreams: Upstream[]): Promise<string> {
  let turn = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const shopper = req.headers['x-soak-shopper'] === '1';
    for (let tries = 0; tries < upstreams.length * 2; tries += 1) {
      const up = upstreams[turn++ % upstreams.length]!;
      if (!up.alive || (shopper && !up.shoppers)) continue;
      if (shopper) up.inflight += 1;
      try {
        const answer = await fetch(`http://127.0.0.1:${up.port}${req.url}`, {
          method: req.method ?? 'GET',
          headers: Object.entries(req.headers).flatMap(([k, v]) =>
            typeof v === 'string' && k !== 'host' && k !== 'connection'
              ? [[k, v] as [string, string]]
              : [],
          ),
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
          redirect: 'manual',
        });
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
        return;
      } catch (error) {
        const refused =
          String((error as { cause?: { code?: string } }).cause?.code) === 'ECONNREFUSED';
        if (refused) {
          up.alive = false;
          continue;
        }
        // Cut off mid-request (a killed instance): the sender's to retry.
        res.writeHead(502).end();
        return;
      } finally {
        if (shopper) up.inflight -= 1;
      }
    }
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function startDoomed(config: SoakInstanceConfig): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(new URL('./soak-instance.ts', import.meta.url), {
    env: { ...process.env, PW_SOAK: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.on('message', (m: { type: string; port?: number }) => {
      if (m.type === 'ready') resolve({ child, port: m.port! });
    });
    child.once('exit', (code) => reject(new Error(`the doomed instance exited (${code})`)));
  });
}

async function fault(kind: 'drop' | 'duplicate' | 'reorder', times: number): Promise<void> {
  const res = await fetch(`${sb.url}/sandbox/webhook-faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind, times }),
  });
  assert.equal(res.status, 201, await res.text());
}

test(`${BASKETS} baskets over three instances on one PostgreSQL, webhooks dropped, duplicated and reordered, one instance killed: none charged twice, none paid and unfulfilled, no 5xx`, {
  timeout: scaled(120_000 + BASKETS * 500),
}, async () => {
  const upstreams: Upstream[] = [];
  const balancer = await startBalancer(upstreams);
  const base = {
    providerUrl: sb.url,
    apiKey: sb.apiKey,
    merchantCode: sb.merchantCode,
    publicUrl: `${balancer}/payments`.replace('/payments', ''),
    databaseUrl: pg.url,
    leaseMs: LEASE_MS,
  };
  const live = await Promise.all(['a', 'b'].map((name) => startInstance({ ...base, name })));
  for (const [i, instance] of live.entries()) {
    cleanup.push(instance.close);
    upstreams.push({
      name: ['a', 'b'][i]!,
      port: instance.port,
      alive: true,
      shoppers: true,
      inflight: 0,
    });
  }
  const doomed = await startDoomed({ ...base, name: 'c', dieAt: 4 });
  const c: Upstream = { name: 'c', port: doomed.port, alive: true, shoppers: true, inflight: 0 };
  upstreams.push(c);
  let killed = false;
  // Inside its fourth hook's transaction, after done, it stays: the balancer stops sending it
  // shoppers (as a health check would), their answers under way finish, and it is killed.
  const stuck = new Promise<void>((resolve) => {
    let hooks = 0;
    doomed.child.on('message', (m: { type: string }) => {
      if (m.type === 'hook' && ++hooks >= 4) resolve();
    });
  });
  void stuck.then(async () => {
    c.shoppers = false;
    await until('the shoppers’ requests under way on the doomed instance', () => c.inflight === 0);
    killed = true;
    doomed.child.kill('SIGKILL');
  });
  const every = Math.max(1, Math.floor(BASKETS / 6));
  await fault('drop', every);
  await fault('duplicate', every);
  await fault('reorder', every);

  const serverErrors: string[] = [];
  const shopper = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${balancer}${path}`, {
      method,
      headers: {
        origin: 'https://shop.example',
        'content-type': 'application/json',
        'x-soak-shopper': '1',
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 500)
      serverErrors.push(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: SHOPPERS }, async () => {
      while (next < BASKETS) {
        const basket = `basket-${next++}`;
        const created = await shopper('POST', '/checkouts', { order: { basket } });
        assert.equal(created.status, 201, basket);
        const { id } = (await created.json()) as { id: string };
        const pay = () => shopper('PUT', `/checkouts/${id}`, cardBody('4200000000000091'));
        // Every third shopper clicks Pay twice.
        const answers = await Promise.all(next % 3 === 0 ? [pay(), pay()] : [pay()]);
        assert.ok(
          answers.some((a) => a.status === 200),
          `${basket}: ${answers.map((a) => a.status)}`,
        );
      }
    }),
  );
  const admin = connect('pg', pg.url, 2);
  cleanup.push(admin.close);
  const fulfilled = async () =>
    (await admin.query('SELECT basket, count(*)::int AS n FROM orders GROUP BY basket')).map(
      (r) => [String(r.basket), Number(r.n)] as const,
    );
  // The webhooks' retries and reconciliation on the live instances finish what is left.
  await until(
    `every basket fulfilled`,
    async () => {
      await Promise.all(live.map((i) => i.handler.reconcile().catch(() => undefined)));
      const rows = await fulfilled();
      if (rows.length === BASKETS) return true;
      await sleep(LEASE_MS / 4);
      return false;
    },
    60_000 + BASKETS * 200,
  );
  assert.ok(killed, 'the third instance was killed inside a hook');
  const rows = await fulfilled();
  assert.deepEqual(
    rows.filter(([, n]) => n !== 1),
    [],
    'each basket fulfilled by exactly one order row',
  );
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const charged = new Map<string, number>();
  for (const checkout of await provider.checkouts.list()) {
    if (checkout.status !== 'PAID') continue;
    const basket = String(checkout.checkout_reference).split('~')[0]!;
    charged.set(basket, (charged.get(basket) ?? 0) + 1);
  }
  assert.equal(charged.size, BASKETS, 'every basket paid');
  assert.deepEqual(
    [...charged].filter(([, n]) => n > 1),
    [],
    'no basket charged twice',
  );
  assert.deepEqual(serverErrors, [], 'no shopper saw a 5xx');
  assert.deepEqual(warnings, [], 'no listeners piled up');
});
