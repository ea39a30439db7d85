// A checkout's open step, kept by the handler while the checkout is pending: GET
// /checkouts/:id gives it back (so a widget loaded mid-challenge shows the challenge again),
// an attempt that opens no step drops it, and a final checkout has none. Against a real
// sandbox, with the memory store the handler is given (the Redis store: test/node/redis).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.ts';
import { OPEN_STEP_TTL_MS } from '../../../src/server/outcomes/open-steps.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { createCheckout, type Harness, handlerPerTest, makeHandler, request } from './fixtures.ts';

let sb: Sandbox;
handlerPerTest((s) => {
  sb = s;
});

interface Answer {
  status?: string;
  next_step?: { url: string; payload?: Record<string, string>; full?: string };
  payment_type?: string;
  pay_to_email?: string;
  return_url?: string;
}

async function read(h: Harness, id: string): Promise<Answer> {
  const res = await h.handle(request('GET', `/checkouts/${id}`, { origin: null }));
  assert.equal(res.status, 200);
  return (await res.json()) as Answer;
}

async function pay(h: Harness, id: string, body: unknown) {
  const res = await h.handle(request('PUT', `/checkouts/${id}`, { body }));
  return { status: res.status, body: (await res.json()) as Answer };
}

/** Posts the challenge's answer as the issuer's page would. */
async function answerChallenge(step: NonNullable<Answer['next_step']>, paRes: 'Y' | 'N') {
  const payload = step.payload ?? {};
  await fetch(payload.TermUrl ?? '', {
    method: 'POST',
    body: new URLSearchParams({ MD: payload.MD ?? '', PaRes: paRes }),
    redirect: 'manual',
  });
}

/** A memory store that counts what the open steps write, and how long each is kept. */
function watchedStore(): { store: PaymentStore; writes: { key: string; ttlMs: number }[] } {
  const store = createMemoryStore();
  const writes: { key: string; ttlMs: number }[] = [];
  const write = store.write?.bind(store);
  assert.ok(write);
  store.write = (key, value, ttlMs) => {
    writes.push({ key, ttlMs });
    return write(key, value, ttlMs);
  };
  return { store, writes };
}

describe('the open step', () => {
  let store: PaymentStore;
  let writes: { key: string; ttlMs: number }[];
  let h: Harness;
  before(() => {
    ({ store, writes } = watchedStore());
  });

  test('a pending challenge: GET gives back the step the process answer gave, with its method', async () => {
    h = makeHandler(sb, { store });
    const { id } = await createCheckout(h);
    const paid = await pay(h, id, cardBody('4200000000000042'));
    assert.equal(paid.status, 202);
    const again = await read(h, id);
    assert.equal(again.status, 'PENDING');
    assert.deepEqual(again.next_step, paid.body.next_step);
    assert.equal(again.payment_type, 'card');
    // Still only the public checkout besides it.
    assert.equal(again.pay_to_email, undefined);
    assert.equal(again.return_url, undefined);
    assert.deepEqual(writes.at(-1), {
      key: `step:${sb.merchantCode}:${id}`,
      ttlMs: OPEN_STEP_TTL_MS,
    });
    assert.equal(OPEN_STEP_TTL_MS, 20 * 60 * 1000);

    // Answered at the issuer: the checkout is final, and neither GET nor the store holds a step.
    await answerChallenge(again.next_step!, 'Y');
    const settled = await read(h, id);
    assert.equal(settled.status, 'PAID');
    assert.equal(settled.next_step, undefined);
    assert.equal(settled.payment_type, undefined);
    assert.equal(await store.read?.(`step:${sb.merchantCode}:${id}`), undefined);
  });

  test('a second challenge replaces the first; a bank step is kept with its method', async () => {
    h = makeHandler(sb, { store });
    const { id } = await createCheckout(h);
    await pay(h, id, cardBody('4200000000000042'));
    const second = await pay(h, id, cardBody('5200000000000015'));
    assert.deepEqual((await read(h, id)).next_step, second.body.next_step);

    const bank = await pay(h, id, { payment_type: 'ideal' });
    assert.equal(bank.status, 202);
    const open = await read(h, id);
    assert.equal(open.payment_type, 'ideal');
    assert.equal(open.next_step?.full, bank.body.next_step?.full);
  });

  test('an attempt that opens no step drops the open one (a boleto issued meanwhile)', async () => {
    h = makeHandler(sb, { store });
    const { id } = await createCheckout(h, { sku: 'boleto' });
    assert.equal((await pay(h, id, cardBody('4200000000000042'))).status, 202);
    const boleto = await pay(h, id, { payment_type: 'boleto' });
    assert.equal(boleto.status, 200);
    const now = await read(h, id);
    assert.equal(now.status, 'PENDING');
    assert.equal(now.next_step, undefined, 'the voucher, not the abandoned challenge');
  });

  test('a step already answered elsewhere is not offered (the return page saw it final)', async () => {
    h = makeHandler(sb, { store });
    const { id } = await createCheckout(h);
    const { body } = await pay(h, id, cardBody('4200000000000042'));
    await answerChallenge(body.next_step!, 'N');
    const back = await h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null }));
    assert.equal(back.status, 303);
    // Dropped in the background once the final status was seen.
    await until('the answered step to leave the store', async () => {
      return (await store.read?.(`step:${sb.merchantCode}:${id}`)) === undefined;
    });
    assert.equal(h.failed.length, 1);
  });
});

describe('one answer for a basket’s checkout, whichever route finds it', () => {
  /** The basket is named by the order, as a shop's cookie would name it. */
  const shop = () =>
    makeHandler(sb, {
      resolveCheckout: (order) => ({
        reference: (order as { basket: string }).basket,
        amount: 10,
        currency: 'EUR',
      }),
    });
  const post = async (h: Harness, path: string, body?: unknown) => {
    const res = await h.handle(request('POST', path, body === undefined ? {} : { body }));
    return { status: res.status, body: (await res.json()) as Answer & { id: string } };
  };

  test('POST /checkouts finding the basket’s checkout carries its open step, as GET does', async () => {
    const h = shop();
    const order = { basket: `steps-${process.pid}-1` };
    const made = await post(h, '/checkouts', { order });
    assert.equal(made.status, 201);
    const challenge = await pay(h, made.body.id, cardBody('4200000000000042'));
    assert.equal(challenge.status, 202);
    // The page loaded again (a reload mid-challenge), naming its checkout by its order.
    const found = await post(h, '/checkouts', { order });
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.next_step, challenge.body.next_step);
    assert.equal(found.body.payment_type, 'card');
    assert.deepEqual(found.body, await read(h, made.body.id));

    // Back from the bank's page: the bank step, its method with it.
    const bank = await pay(h, made.body.id, { payment_type: 'ideal' });
    const back = await post(h, '/checkouts', { order });
    assert.equal(back.body.payment_type, 'ideal');
    assert.deepEqual(back.body.next_step, bank.body.next_step);
  });

  test('a retry from an old tab that finds the basket’s next checkout mid-challenge carries its step', async () => {
    const h = shop();
    const order = { basket: `steps-${process.pid}-2` };
    const first = (await post(h, '/checkouts', { order })).body.id;
    assert.equal((await pay(h, first, cardBody('4012001037461114'))).body.status, 'FAILED');
    // Another tab tried another card: the basket's next checkout, its challenge open.
    const next = await post(h, `/checkouts/${first}/retry`);
    assert.equal(next.status, 201);
    assert.equal(next.body.next_step, undefined, 'a new checkout has no step');
    const challenge = await pay(h, next.body.id, cardBody('4200000000000042'));
    const old = await post(h, `/checkouts/${first}/retry`);
    assert.equal(old.status, 200);
    assert.equal(old.body.id, next.body.id);
    assert.deepEqual(old.body.next_step, challenge.body.next_step);
    assert.deepEqual(old.body, await read(h, next.body.id));
  });
});

describe('the open step when the store cannot help', () => {
  test('a store that is away: the payment goes on, GET answers without a step, and says why', async () => {
    const broken = createMemoryStore();
    const refuse = async () => {
      throw new Error('connection refused');
    };
    broken.read = refuse;
    broken.write = refuse;
    broken.remove = refuse;
    const h = makeHandler(sb, { store: broken });
    const { id } = await createCheckout(h);
    const paid = await pay(h, id, cardBody('4200000000000042'));
    assert.equal(paid.status, 202);
    const again = await read(h, id);
    assert.equal(again.status, 'PENDING');
    assert.equal(again.next_step, undefined);
    assert.ok(
      h.logs.some((line) => line.includes('open step: the store could not keep it')),
      h.logs.join('\n'),
    );
  });

  test('a store without records: each instance keeps its own steps', async () => {
    const {
      read: _read,
      swap: _swap,
      write: _write,
      remove: _remove,
      ...bare
    } = createMemoryStore();
    const h = makeHandler(sb, { store: bare });
    const { id } = await createCheckout(h);
    const paid = await pay(h, id, cardBody('4200000000000042'));
    assert.deepEqual((await read(h, id)).next_step, paid.body.next_step);
  });

  test('a kept step that is not a safe one is never given out', async () => {
    const store = createMemoryStore();
    const h = makeHandler(sb, { store });
    const { id } = await createCheckout(h);
    await pay(h, id, cardBody('4200000000000042'));
    const key = `step:${sb.merchantCode}:${id}`;
    const kept = JSON.parse((await store.read?.(key)) ?? '{}') as {
      next_step: { url: string };
    };
    kept.next_step.url = 'javascript:alert(1)';
    await store.write?.(key, JSON.stringify(kept), 60_000);
    assert.equal((await read(h, id)).next_step, undefined);
    await store.write?.(key, 'not json', 60_000);
    assert.equal((await read(h, id)).next_step, undefined);
  });
});

describe('a payment on its way to the provider', () => {
  /** The provider takes 1.5 s over the next payment (the sandbox's latency fault). */
  const slowPayment = () =>
    fetch(`${sb.url}/sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'PUT',
        path: '/v0.1/checkouts/*',
        kind: 'latency',
        delayMs: 1500,
      }),
    });

  test('a page loaded meanwhile (a reload during "Processing…") is answered its outcome or its step, not a checkout to pay again', async () => {
    const store = createMemoryStore();
    const h = makeHandler(sb, {
      store,
      resolveCheckout: (order) => ({
        reference: (order as { basket: string }).basket,
        amount: 10,
        currency: 'EUR',
      }),
    });
    for (const [card, status, step] of [
      ['4200000000000091', 'PAID', false],
      ['4200000000000042', 'PENDING', true],
    ] as const) {
      const order = { basket: `paying-${process.pid}-${card}` };
      const made = await h.handle(request('POST', '/checkouts', { body: { order } }));
      const { id } = (await made.json()) as { id: string };
      assert.equal((await slowPayment()).status, 201);
      const paying = pay(h, id, cardBody(card));
      await until('the payment on its way', async () => {
        return (await store.read?.(`step:${sb.merchantCode}:${id}`)) === 'paying';
      });
      const found = await h.handle(request('POST', '/checkouts', { body: { order } }));
      const [byOrder, byId] = [(await found.json()) as Answer, await read(h, id)];
      const answered = await paying;
      for (const answer of [byOrder, byId]) {
        assert.equal(answer.status, status);
        assert.deepEqual(answer.next_step, step ? answered.body.next_step : undefined);
      }
    }
  });

  test('another tab’s Pay, refused meanwhile, leaves the first payment’s mark: a reload waits for its outcome', async () => {
    // The provider works on tab 1's payment until told to answer; it refuses tab 2's, as a
    // provider refuses a second payment of a checkout while one is in progress.
    let held!: () => void;
    const reached = new Promise<void>((resolve) => {
      held = resolve;
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let puts = 0;
    let reloading = false;
    const provider: typeof fetch = async (input, init) => {
      if (init?.method === 'PUT') {
        puts += 1;
        if (puts === 2) {
          const body = { error_code: 'CONFLICT', message: 'A payment is in progress' };
          return Response.json(body, { status: 409 });
        }
        held();
        await answered;
      }
      const response = await fetch(input, init);
      // The reload's first read is back (the checkout PENDING): now tab 1's payment is answered.
      if (reloading) {
        reloading = false;
        answer();
      }
      return response;
    };
    const store = createMemoryStore();
    const h = makeHandler(sb, { store, provider: { fetch: provider } });
    const { id } = await createCheckout(h);
    const tab1 = pay(h, id, cardBody('4200000000000091'));
    await reached;
    const tab2 = await pay(h, id, cardBody('4200000000000091'));
    assert.equal(tab2.status, 409);
    assert.equal(await store.read?.(`step:${sb.merchantCode}:${id}`), 'paying');
    reloading = true;
    const reload = await read(h, id);
    assert.equal(reload.status, 'PAID', 'the outcome, not a checkout to pay again');
    assert.equal((await tab1).body.status, 'PAID');
  });
});
