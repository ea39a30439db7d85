// onPaid / onFailed run exactly once per checkout, whatever mix of reports reaches the
// handler at the same moment: the shopper's return redirect, the provider's webhook (the
// real one the sandbox sends, plus a duplicate), and the widget's polling, split over two
// handler instances that share one payment store. 1,000 checkouts, each settled by a
// 3DS challenge at the provider (so the handler learns the outcome only from these reports).
// A webhook that finds the hook running for another report is answered 503 HOOK_RUNNING.
// Everything runs in process: the handlers reach the sandbox through `handle()`, and the
// sandbox's webhooks reach the handlers through a fetch that routes the merchant's host.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import { createMemoryStore, createPaymentHandler } from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { inProcessFetch } from '../fuzz/transport.ts';
import { cardBody } from '../support/cards.ts';

const RACES = 1_000;
const CONCURRENCY = 25;
const WEBHOOK_ATTEMPTS = 5;
const ORIGIN = 'https://shop.example';
const MERCHANT = 'http://merchant.test';
const challengeCard = cardBody('4200000000000042');

let sandbox: Sandbox;
const realFetch = globalThis.fetch;
const paid = new Map<string, number>();
const failed = new Map<string, number>();
let webhooksDelivered = 0;
/** Webhooks that found the hook running for another report (answered 503). */
let busyWebhooks = 0;
/** The handlers' answers to the sandbox's own webhooks, by the checkout id they name. */
const webhookAnswers = new Map<string, number[]>();
let handlers: ((request: Request) => Promise<Response>)[] = [];

before(async () => {
  sandbox = await createSandbox({
    webhook: { attempts: WEBHOOK_ATTEMPTS, initialDelayMs: 10, maxDelayMs: 50 },
  });
  const store = createMemoryStore();
  // A slow hook widens the window in which a second report could slip past the claim.
  const hook = (map: Map<string, number>) => async (checkout: Checkout) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (checkout.id) map.set(checkout.id, (map.get(checkout.id) ?? 0) + 1);
  };
  const instance = () =>
    createPaymentHandler({
      provider: {
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        merchantCode: sandbox.merchantCode,
        fetch: inProcessFetch(sandbox),
      },
      publicUrl: `${MERCHANT}/payments`,
      allowedOrigins: [ORIGIN],
      resultPages: {
        success: '/done?ok=1',
        failure: '/done?ok=0',
      },
      resolveCheckout: () => ({ amount: 10, currency: 'EUR', redirect: false }),
      hooks: {
        onPaid: hook(paid),
        onFailed: hook(failed),
      },
      store: store,
    });
  handlers = [instance(), instance()];
  // The sandbox delivers webhooks with the global fetch: the merchant's host goes to a
  // handler instance; nothing else is expected.
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(MERCHANT)) return realFetch(input, init);
    webhooksDelivered += 1;
    const handler = pick();
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const id =
      typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string'
        ? body.id
        : undefined;
    let status = 0;
    try {
      const response = await handler(request);
      status = response.status;
      return response;
    } finally {
      if (id !== undefined) webhookAnswers.set(id, [...(webhookAnswers.get(id) ?? []), status]);
    }
  };
});

after(async () => {
  globalThis.fetch = realFetch;
  await sandbox.close();
});

let turn = 0;
const pick = () => handlers[turn++ % 2]!;

function call(method: string, path: string, body?: unknown): Promise<Response> {
  return pick()(
    new Request(`${MERCHANT}/payments${path}`, {
      method,
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** One checkout: challenged, settled at the provider, then reported five ways at once. */
async function race(index: number): Promise<{ id: string; outcome: 'PAID' | 'FAILED' }> {
  const created = (await (await call('POST', '/checkouts', { order: 'tea' })).json()) as {
    id: string;
  };
  const id = created.id;
  const processed = await call('PUT', `/checkouts/${id}`, challengeCard);
  assert.equal(processed.status, 202);
  const { next_step: step } = (await processed.json()) as {
    next_step: { payload: { MD: string; TermUrl: string } };
  };
  const outcome = index % 5 === 0 ? 'FAILED' : 'PAID';
  const settle = () =>
    sandbox.handle(
      new Request(step.payload.TermUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ MD: step.payload.MD, PaRes: outcome === 'PAID' ? 'Y' : 'N' }),
      }),
    );
  const reports = () => [
    call('GET', `/return?checkout_id=${id}`),
    call('POST', '/webhook', { event_type: 'CHECKOUT_STATUS_CHANGED', id }),
    call('GET', `/checkouts/${id}`),
    call('GET', `/checkouts/${id}`),
  ];
  // Half settle first and then race; half race the settlement itself, so some reports
  // still see PENDING and the rest see the outcome in every order.
  const answers =
    index % 2 === 0
      ? await Promise.all([settle(), ...reports()])
      : [await settle(), ...(await Promise.all(reports()))];
  const webhook = answers[answers.length - 3]!;
  for (const answer of answers) {
    if (answer === webhook && answer.status === 503) {
      // The hook was running for another report: the provider is asked to deliver again.
      const body = (await answer.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'HOOK_RUNNING');
      assert.ok(Number(answer.headers.get('retry-after')) > 0, 'a 503 says when to come back');
      busyWebhooks += 1;
      continue;
    }
    assert.ok(answer.status < 400, `${id}: a report answered ${answer.status}`);
    await answer.body?.cancel();
  }
  // The widget's last poll after the dust settles shows the outcome.
  const final = (await (await call('GET', `/checkouts/${id}`)).json()) as { status: string };
  assert.equal(final.status, outcome);
  return { id, outcome };
}

test(`${RACES} races of return + webhook + poll call onPaid/onFailed exactly once each`, async () => {
  const started = performance.now();
  const results: { id: string; outcome: 'PAID' | 'FAILED' }[] = [];
  for (let next = 0; next < RACES; next += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, RACES - next) }, (_, i) =>
      race(next + i),
    );
    results.push(...(await Promise.all(batch)));
  }
  // The sandbox's own webhooks are still arriving, one chain per settled checkout: wait
  // until every chain has ended (a 2xx, or its attempts spent), so none can run a hook.
  const ended = (id: string) => {
    const answers = webhookAnswers.get(id) ?? [];
    return answers.some((s) => s >= 200 && s < 300) || answers.length >= WEBHOOK_ATTEMPTS;
  };
  await until(
    () => `the sandbox's webhooks to end (${webhooksDelivered} arrived)`,
    () => results.every(({ id }) => ended(id)),
    10_000,
  );
  assert.ok(webhooksDelivered >= RACES, `only ${webhooksDelivered} webhooks arrived`);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `exactly-once: ${RACES} races (${RACES * 6} reports, ${webhooksDelivered} provider webhooks, ${busyWebhooks} webhooks told to come back) in ${seconds.toFixed(1)} s`,
  );

  let paidCount = 0;
  for (const { id, outcome } of results) {
    if (outcome === 'PAID') {
      paidCount += 1;
      assert.equal(paid.get(id), 1, `onPaid ran ${paid.get(id) ?? 0} times for ${id}`);
      assert.equal(failed.get(id), undefined, `onFailed ran for paid ${id}`);
    } else {
      assert.equal(failed.get(id), 1, `onFailed ran ${failed.get(id) ?? 0} times for ${id}`);
      assert.equal(paid.get(id), undefined, `onPaid ran for failed ${id}`);
    }
  }
  assert.equal(paid.size, paidCount);
  assert.equal(failed.size, RACES - paidCount);
});
