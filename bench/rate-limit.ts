// What the rate limits cost a create, in this process: the handler answers POST /checkouts
// for clients at a thousand addresses (IPv4 and IPv6), with its limits on (counting, never
// refusing) and off, in alternating rounds. `resolveCheckout` refuses every order, so the
// answer comes right after the check and no provider call blurs the difference: what is
// left is the address read, its bucket and the counter (the memory store's).
import { performance } from 'node:perf_hooks';
import { createPaymentHandler, PaymentHandlerError } from '../src/server/index.ts';

export interface LimiterCost {
  /** µs per POST /checkouts with the limits counting it, per round. */
  on: number[];
  /** µs per POST /checkouts with `rateLimit: false`, per round. */
  off: number[];
}

const ORIGIN = 'http://127.0.0.1';

function handler(limits: 'on' | 'off') {
  const unreachable = { limit: Number.MAX_SAFE_INTEGER };
  return createPaymentHandler({
    provider: {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk_test_bench',
      merchantCode: 'MBENCH',
    },
    publicUrl: 'http://127.0.0.1:9/payments',
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/ok',
      failure: '/ko',
    },
    resolveCheckout: () => {
      throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order');
    },
    rateLimit: limits === 'off' ? false : { checkoutsPerClient: unreachable },
  });
}

const addresses = Array.from({ length: 1000 }, (_, i) =>
  i % 2 === 0 ? `198.51.${(i >> 8) & 255}.${i & 255}` : `2001:db8:${i.toString(16)}::${i}`,
);

async function round(handle: ReturnType<typeof handler>, requests: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < requests; i += 1) {
    const request = new Request('http://127.0.0.1/payments/checkouts', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: '{"order":{"sku":"none"}}',
    });
    const env = { incoming: { socket: { remoteAddress: addresses[i % addresses.length] } } };
    const response = await handle(request, env);
    if (response.status !== 400) throw new Error(`expected 400, got ${response.status}`);
  }
  return ((performance.now() - started) * 1000) / requests;
}

export async function measureLimiterCost(requests = 20_000, rounds = 4): Promise<LimiterCost> {
  const on = handler('on');
  const off = handler('off');
  await round(on, 2_000);
  await round(off, 2_000);
  const cost: LimiterCost = { on: [], off: [] };
  for (let r = 0; r < rounds; r += 1) {
    cost.on.push(await round(on, requests));
    cost.off.push(await round(off, requests));
  }
  return cost;
}
