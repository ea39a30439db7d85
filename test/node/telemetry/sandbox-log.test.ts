// An operator follows a trace from the handler into the provider: every provider call of a
// traced request reaches the sandbox with the client span's `traceparent`, and the sandbox's
// request log (the dashboard's requests view reads it) shows it beside the call.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { makeHandler } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { created, PAID_CARD, send } from './flows.ts';
import { inMemorySdk, parentOf, registerContextManager } from './sdk.ts';

registerContextManager();
const sdk = inMemorySdk();

let sb: Sandbox;
before(async () => {
  sb = await createSandbox({ port: 0 });
});
after(() => sb.close());

interface Logged {
  method: string;
  path: string;
  traceparent?: string;
}

test("the sandbox's request log holds the traceparent of each provider call of a trace", async () => {
  const h = makeHandler(sb, {
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
  });
  const id = await created(h, 'traced-create', { sku: 'tea' });
  const paid = await send(h, 'traced-pay', 'PUT', `/checkouts/${id}`, {
    body: cardBody(PAID_CARD),
  });
  assert.equal(paid.status, 200);

  const log = (await (
    await fetch(`${sb.url}/sandbox/requests`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    })
  ).json()) as Logged[];
  const servers = sdk
    .spans()
    .filter((s) => s.kind === SpanKind.SERVER)
    .map((s) => s.spanContext().spanId);
  const calls = sdk
    .spans()
    .filter((s) => s.kind === SpanKind.CLIENT && servers.includes(parentOf(s) ?? ''));
  assert.ok(calls.length >= 2, 'the create and the payment each called the provider');
  for (const call of calls) {
    const { traceId, spanId } = call.spanContext();
    const traceparent = `00-${traceId}-${spanId}-01`;
    const logged = log.filter((r) => r.traceparent === traceparent);
    assert.equal(logged.length, 1, `${call.name} is in the sandbox's log under its traceparent`);
    const url = new URL(String(call.attributes['url.full']));
    assert.deepEqual(
      [logged[0]?.method, logged[0]?.path],
      [call.attributes['http.request.method'], url.pathname],
    );
  }
});

test('without telemetry, the provider calls carry no traceparent', async () => {
  const h = makeHandler(sb, { telemetry: false });
  await created(h, 'untraced-create', { sku: 'tea' });
  const log = (await (
    await fetch(`${sb.url}/sandbox/requests`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    })
  ).json()) as Logged[];
  const [newest] = log;
  assert.equal(`${newest?.method} ${newest?.path}`, 'POST /v0.1/checkouts');
  assert.equal(newest?.traceparent, undefined);
});
