// The requests of the telemetry tests' runs, each tagged with an X-Request-Id of the test's
// choosing: the handler's server span records it, so a test finds each request's spans.
import assert from 'node:assert/strict';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Harness } from '../server/fixtures.ts';
import { request } from '../server/fixtures.ts';
import { authenticate, type ChallengePayload, cardBody } from '../support/cards.ts';

export const PAID_CARD = '4200000000000091';
export const CHALLENGE_CARD = '4200000000000042';

export async function send(
  h: Harness,
  requestId: string,
  method: string,
  path: string,
  options: Parameters<typeof request>[2] = {},
): Promise<Response> {
  const req = request(method, path, options);
  req.headers.set('x-request-id', requestId);
  return h.handle(req);
}

/** `POST /checkouts` for `order`: the new checkout's id. */
export async function created(h: Harness, requestId: string, order: object): Promise<string> {
  const res = await send(h, requestId, 'POST', '/checkouts', { body: { order } });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

/** A 3DS card's payment, its challenge then authenticated at the provider as the shopper would. */
export async function challenged(h: Harness, requestId: string, id: string): Promise<void> {
  const res = await send(h, requestId, 'PUT', `/checkouts/${id}`, {
    body: cardBody(CHALLENGE_CARD),
  });
  assert.equal(res.status, 202);
  const { next_step } = (await res.json()) as { next_step: { payload: ChallengePayload } };
  await authenticate(next_step.payload);
}

/** The provider's notification that checkout `id` changed. */
export const webhook = (h: Harness, requestId: string, id: string) =>
  send(h, requestId, 'POST', '/webhook', {
    origin: null,
    body: { event_type: 'CHECKOUT_STATUS_CHANGED', id },
  });

/** Matches the span of a hook's run for checkout `id`. */
export const isHookSpan = (name: string, id: string) => (span: ReadableSpan) =>
  span.name === `payment_widget.hook ${name}` &&
  span.attributes['payment_widget.checkout.id'] === id;
