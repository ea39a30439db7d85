// Provider faults injected through the sandbox's control routes (POST /sandbox/faults) on
// create, process, retrieve and webhook delivery, with the handler's client timeout at
// TIMEOUT_MS (600 ms on an idle machine, scaled like every margin below) and 2 retries for
// GETs. What must hold whatever breaks:
// - no checkout is ever charged twice (the provider holds one transaction);
// - a PAID checkout is reported PAID to the widget (GET /checkouts/:id) and to onPaid, once;
// - while the provider misbehaves the handler answers a JSON error marked retryable, and the
//   same call succeeds once the fault is gone;
// - a webhook that fails (merchant down, provider unreadable) is delivered again until it lands.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { scaled } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  CHALLENGE_CARD,
  errorOf,
  isRecord,
  PAID_CARD,
  type Stack,
  startStack,
  TIMEOUT_MS,
} from './stack.ts';

let stack: Stack;
describe('provider faults on every call the handler makes', () => {
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });
  beforeEach(async () => {
    await stack.clearFaults();
    stack.frontFaults.length = 0;
  });

  const CHECKOUT = '/v0.1/checkouts/:id';
  /** How many PUTs of the checkout the sandbox has answered (it logs each once answered). */
  const putsAnswered = (id: string) =>
    stack.sandboxLogs.filter((line) => line.startsWith(`PUT /v0.1/checkouts/${id} `)).length;

  async function create(): Promise<string> {
    const res = await stack.call('POST', '/checkouts', { order: 10 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return String((res.body as { id: string }).id);
  }

  /** The provider's own record: exactly one transaction, the checkout PAID. */
  async function assertChargedOnce(id: string) {
    const checkout = await stack.providerCheckout(id);
    assert.equal(checkout.status, 'PAID');
    assert.equal(checkout.transactions?.length, 1, 'the checkout was charged more than once');
  }

  async function assertReportedPaid(id: string) {
    const polled = await stack.call('GET', `/checkouts/${id}`);
    assert.equal(polled.status, 200);
    assert.equal((polled.body as { status: string }).status, 'PAID');
    await stack.waitFor(`onPaid for ${id}`, () => stack.paid.has(id));
    // The webhook is the report that could still call it a second time: wait until the
    // handler has acknowledged it, which ends the sandbox's deliveries of this checkout.
    await stack.waitFor(`the webhook for ${id} answered 2xx`, () =>
      (stack.webhookAnswers.get(id) ?? []).some((status) => status >= 200 && status < 300),
    );
    assert.equal(stack.paid.get(id), 1, 'onPaid ran more than once');
  }

  const breakdowns = [
    { name: 'a 500', fault: { kind: 'error', status: 500 }, status: 500 },
    { name: 'a 502', fault: { kind: 'error', status: 502 }, status: 502 },
    { name: 'a 503', fault: { kind: 'error', status: 503 }, status: 503 },
    { name: 'a dropped connection', fault: { kind: 'drop' }, status: 502 },
    {
      name: 'latency past the timeout',
      fault: { kind: 'latency', delayMs: TIMEOUT_MS + scaled(600) },
      status: 504,
    },
  ] as const;

  describe('create', () => {
    for (const { name, fault, status } of breakdowns) {
      test(`${name} answers a retryable ${status}, and the next try creates the checkout`, async () => {
        await stack.fault({ method: 'POST', path: '/v0.1/checkouts', times: 1, ...fault });
        const res = await stack.call('POST', '/checkouts', { order: 10 });
        assert.equal(res.status, status, JSON.stringify(res.body));
        assert.equal(errorOf(res.body).retryable, true);
        await create();
      });
    }
  });

  describe('process', () => {
    for (const { name, fault, status } of breakdowns.slice(0, 4)) {
      test(`${name} leaves the checkout untouched and retryable; the retry pays once`, async () => {
        const id = await create();
        await stack.fault({ method: 'PUT', path: CHECKOUT, times: 1, ...fault });
        const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
        assert.equal(res.status, status, JSON.stringify(res.body));
        assert.equal(errorOf(res.body).retryable, true);
        assert.equal((await stack.providerCheckout(id)).transactions?.length ?? 0, 0);
        const retry = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        assert.equal((retry.body as { status: string }).status, 'PAID');
        await assertChargedOnce(id);
        await assertReportedPaid(id);
      });
    }

    test('latency past the timeout, retried at once: the slow request lands second and is refused', async () => {
      const id = await create();
      const delayMs = TIMEOUT_MS * 2.5;
      await stack.fault({ method: 'PUT', path: CHECKOUT, times: 1, kind: 'latency', delayMs });
      const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      // The read-back found the checkout untouched: the provider was still sleeping on it.
      assert.equal(res.status, 504, JSON.stringify(res.body));
      assert.equal(errorOf(res.body).retryable, true);
      const retry = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      // The first PUT wakes up and meets a processed checkout: both PUTs are answered.
      await stack.waitFor(`the late PUT of ${id} answered`, () => putsAnswered(id) >= 2);
      assert.ok(
        stack.sandboxLogs.some((line) => line.startsWith(`PUT /v0.1/checkouts/${id} 409`)),
        'the late PUT was not refused',
      );
      await assertChargedOnce(id);
      await assertReportedPaid(id);
    });

    test('latency past the timeout, retried late: 409, yet GET and onPaid say PAID', async () => {
      const id = await create();
      // The read-back, sent once the client gives up at TIMEOUT_MS, must find the checkout
      // untouched: the PUT sleeps far past it (the test waits for it to land, not a guess).
      const delayMs = TIMEOUT_MS * 2.5;
      await stack.fault({ method: 'PUT', path: CHECKOUT, times: 1, kind: 'latency', delayMs });
      const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(errorOf(res.body).retryable, true);
      // The slow PUT lands first now (the handler sends a PUT once: it is the only one).
      await stack.waitFor(`the slow PUT of ${id} answered`, () => putsAnswered(id) >= 1);
      const retry = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(retry.status, 409);
      assert.equal(errorOf(retry.body).code, 'CHECKOUT_PROCESSED');
      await assertChargedOnce(id);
      await assertReportedPaid(id);
    });

    test('an answer lost after the charge is recovered by reading the checkout back', async () => {
      const id = await create();
      // The charge lands 150 ms after the client gave up; its read-back, sent then, is slowed
      // by 400 ms so that it sees the charge (both scaled, as the timeout is).
      const charge = TIMEOUT_MS + scaled(150);
      await stack.fault({
        method: 'PUT',
        path: CHECKOUT,
        times: 1,
        kind: 'latency',
        delayMs: charge,
      });
      await stack.fault({
        method: 'GET',
        path: CHECKOUT,
        times: 1,
        kind: 'latency',
        delayMs: scaled(400),
      });
      const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body as { status: string }).status, 'PAID');
      assert.ok(
        stack.handlerLogs.some((entry) => entry.message.includes('read back after a lost')),
      );
      await assertChargedOnce(id);
      await assertReportedPaid(id);
    });

    test('when even the read-back fails, the answer says so and is not marked retryable', async () => {
      const id = await create();
      await stack.fault({ method: 'PUT', path: CHECKOUT, times: 1, kind: 'error', status: 503 });
      await stack.fault({ method: 'GET', path: CHECKOUT, times: 3, kind: 'drop' });
      const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.ok(res.status >= 500, JSON.stringify(res.body));
      const error = errorOf(res.body);
      assert.equal(error.code, 'PROCESS_OUTCOME_UNKNOWN');
      assert.equal(error.retryable, false);
      // Once the provider answers again the widget's confirmation works and paying is safe.
      const polled = await stack.call('GET', `/checkouts/${id}`);
      assert.equal((polled.body as { status: string }).status, 'PENDING');
      const retry = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(retry.status, 200);
      await assertChargedOnce(id);
      await assertReportedPaid(id);
    });
  });

  describe('retrieve', () => {
    test('faults within the retry budget are absorbed: the widget sees PAID at once', async () => {
      const id = await create();
      const paid = await stack.call('PUT', `/checkouts/${id}`, cardBody(PAID_CARD));
      assert.equal(paid.status, 200);
      for (const fault of [
        { kind: 'error', status: 500, times: 2 },
        { kind: 'error', status: 503, times: 2 },
        { kind: 'drop', times: 2 },
        { kind: 'latency', delayMs: TIMEOUT_MS + scaled(400), times: 2 },
      ]) {
        await stack.fault({ method: 'GET', path: CHECKOUT, ...fault });
        const res = await stack.call('GET', `/checkouts/${id}`);
        assert.equal(res.status, 200, `${JSON.stringify(fault)}: ${JSON.stringify(res.body)}`);
        assert.equal((res.body as { status: string }).status, 'PAID');
      }
      await assertReportedPaid(id);
    });

    for (const { name, fault, status } of breakdowns) {
      test(`${name} beyond the retries answers a retryable ${status}, then recovers`, async () => {
        const id = await create();
        await stack.fault({ method: 'GET', path: CHECKOUT, times: 3, ...fault });
        const res = await stack.call('GET', `/checkouts/${id}`);
        assert.equal(res.status, status, JSON.stringify(res.body));
        assert.equal(errorOf(res.body).retryable, true);
        const again = await stack.call('GET', `/checkouts/${id}`);
        assert.equal(again.status, 200);
      });
    }
  });

  describe('webhook delivery', () => {
    /** A 3DS payment settled at the provider's TermUrl: only the webhook tells the handler. */
    async function paidBehindTheHandlersBack(): Promise<string> {
      const id = await create();
      const res = await stack.call('PUT', `/checkouts/${id}`, cardBody(CHALLENGE_CARD));
      assert.equal(res.status, 202);
      const nextStep = isRecord(res.body) ? res.body.next_step : undefined;
      assert.equal(await stack.completeChallenge(nextStep, 'Y'), 200);
      return id;
    }

    test('a merchant that answers 503 and drops connections gets the webhook again until it lands', async () => {
      stack.frontFaults.push('503', 'drop', '503');
      const hitsBefore = stack.webhookHits;
      const from = stack.sandboxLogs.length;
      const id = await paidBehindTheHandlersBack();
      await stack.waitFor('onPaid from the webhook', () => stack.paid.has(id));
      // The sandbox logs an attempt once its answer is in, a moment after the hook ran.
      const delivered = () =>
        stack.sandboxLogs.slice(from).some((line) => / attempt 4\/\d+: 204$/.test(line));
      await stack.waitFor('the fourth attempt logged as delivered', delivered);
      assert.equal(stack.webhookHits - hitsBefore, 4);
      const attempts = stack.sandboxLogs.slice(from).filter((line) => line.startsWith('webhook '));
      assert.ok(
        attempts.some((line) => / attempt 1\/\d+: 503$/.test(line)),
        attempts.join('\n'),
      );
      assert.ok(
        attempts.some((line) => / attempt 4\/\d+: 204$/.test(line)),
        attempts.join('\n'),
      );
      await assertChargedOnce(id);
      await assertReportedPaid(id);
    });

    for (const { name, fault } of breakdowns) {
      test(`the provider failing the handler's read (${name}) makes it deliver again`, async () => {
        // Every attempt of the handler's first read fails (1 + 2 retries): the handler answers
        // the webhook with an error, so the provider delivers again.
        await stack.fault({ method: 'GET', path: CHECKOUT, times: 3, ...fault });
        const from = stack.sandboxLogs.length;
        const id = await paidBehindTheHandlersBack();
        await stack.waitFor('onPaid from a redelivered webhook', () => stack.paid.has(id));
        const attempts = stack.sandboxLogs
          .slice(from)
          .filter((line) => line.startsWith('webhook '));
        assert.ok(
          attempts.some((line) => / attempt 1\/\d+: 5\d\d$/.test(line)),
          attempts.join('\n'),
        );
        await assertChargedOnce(id);
        await assertReportedPaid(id);
      });
    }
  });
});
