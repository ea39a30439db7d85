// Who a request counts as for the rate limits: the address each runtime passes beside the
// request, X-Forwarded-For behind trusted proxies, and the buckets addresses are counted in.
// The memory counters the limits keep when no shared store counts for them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addressBucket,
  clientAddressOf,
  runtimeAddress,
} from '../../../src/server/guards/client-address.ts';
import { createMemoryCounters } from '../../../src/server/store/counters.ts';
import { scaled, sleep } from '../../shared/until.ts';

const req = (forwarded?: string) =>
  new Request('http://127.0.0.1/payments/checkouts', {
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  });

describe('the connecting address, as each runtime passes it', () => {
  test('toNodeListener (@hono/node-server): env.incoming.socket', () => {
    const env = { incoming: { socket: { remoteAddress: '192.0.2.1' } }, outgoing: {} };
    assert.equal(runtimeAddress(req(), env), '192.0.2.1');
  });

  test('Bun.serve: the server’s requestIP(request)', () => {
    const request = req();
    const server = {
      requestIP: (r: Request) => (r === request ? { address: '2001:db8::5', port: 1 } : null),
    };
    assert.equal(runtimeAddress(request, server), '2001:db8::5');
  });

  test('Deno.serve: info.remoteAddr.hostname', () => {
    const info = { remoteAddr: { transport: 'tcp', hostname: '198.51.100.4', port: 5 } };
    assert.equal(runtimeAddress(req(), info), '198.51.100.4');
  });

  test('srvx (TanStack Start): the request’s own ip, under any env', () => {
    // srvx's requests carry their socket's address as a getter, as here.
    const request = Object.defineProperty(req(), 'ip', { get: () => '203.0.113.7' });
    assert.equal(runtimeAddress(request, undefined), '203.0.113.7');
    assert.equal(runtimeAddress(request, { KV: {} }), '203.0.113.7');
    // What the runtime passes beside the request still comes first.
    const env = { incoming: { socket: { remoteAddress: '192.0.2.1' } } };
    assert.equal(runtimeAddress(request, env), '192.0.2.1');
    const notText = Object.defineProperty(req(), 'ip', { value: 42 });
    assert.equal(runtimeAddress(notText, undefined), undefined);
  });

  test('a Worker’s env (bindings), no env at all, or a requestIP that throws: unknown', () => {
    assert.equal(runtimeAddress(req(), { KV: {} }), undefined);
    assert.equal(runtimeAddress(req(), undefined), undefined);
    const throwing = {
      requestIP: () => {
        throw new Error('not a server');
      },
    };
    assert.equal(runtimeAddress(req(), throwing), undefined);
  });
});

describe('the client behind proxies', () => {
  const node = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
  const sources = (trustedProxies: number) => ({ clientAddress: undefined, trustedProxies });

  test('no trusted proxy: the connecting address, whatever the header says', () => {
    assert.equal(clientAddressOf(req('203.0.113.9'), node('10.0.0.1'), sources(0)), '10.0.0.1');
  });

  test('n trusted proxies: the address n entries from the right', () => {
    const chain = '192.0.2.66, 203.0.113.9, 10.0.0.7';
    assert.equal(clientAddressOf(req(chain), node('10.0.0.1'), sources(1)), '10.0.0.7');
    assert.equal(clientAddressOf(req(chain), node('10.0.0.1'), sources(2)), '203.0.113.9');
    // Fewer entries than proxies: the furthest one there is.
    assert.equal(clientAddressOf(req('203.0.113.9'), node('10.0.0.1'), sources(3)), '203.0.113.9');
    // No header: the request came straight in.
    assert.equal(clientAddressOf(req(), node('10.0.0.1'), sources(1)), '10.0.0.1');
  });

  test('clientAddress wins over the runtime and the header', () => {
    const fromHeader = {
      clientAddress: (r: Request) => r.headers.get('x-forwarded-for') ?? undefined,
      trustedProxies: 0,
    };
    assert.equal(clientAddressOf(req('203.0.113.9'), node('10.0.0.1'), fromHeader), '203.0.113.9');
  });
});

describe('the bucket an address counts in', () => {
  test('IPv4 as it is, with or without a port, and as IPv4-mapped IPv6', () => {
    assert.equal(addressBucket('192.0.2.1', 64), 'ip:192.0.2.1');
    assert.equal(addressBucket('192.0.2.1:4711', 64), 'ip:192.0.2.1');
    assert.equal(addressBucket('::ffff:192.0.2.1', 64), 'ip:192.0.2.1');
    assert.equal(addressBucket('::ffff:c000:201', 64), 'ip:192.0.2.1');
  });

  test('IPv6 by its prefix: one subscriber’s /64 is one client', () => {
    assert.equal(addressBucket('2001:db8:1:2:3:4:5:6', 64), 'ip:2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:DB8:1:2::ffff', 64), 'ip:2001:db8:1:2::/64');
    assert.equal(addressBucket('[2001:db8:1:2::1]:443', 64), 'ip:2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:db8:1:2ff::1', 56), 'ip:2001:db8:1:200::/56');
    assert.equal(addressBucket('2001:db8::1', 128), 'ip:2001:db8::1');
    assert.equal(addressBucket('fe80::1%eth0', 64), 'ip:fe80::/64');
  });

  test('a text that is no address counts as itself', () => {
    assert.equal(addressBucket('Proxy.Internal', 64), 'ip:proxy.internal');
  });
});

describe('memory counters', () => {
  test('count per key within a window, and start again once it ends', async () => {
    const hit = createMemoryCounters();
    // Short, to see it end; scaled, so that both hits fall inside it on a busy machine.
    const windowMs = scaled(200);
    const a = { key: 'a', windowMs };
    const b = { key: 'b', windowMs };
    const [first] = hit([a]);
    assert.equal(first?.hits, 1);
    assert.ok((first?.resetInMs ?? 0) > 0 && (first?.resetInMs ?? 0) <= windowMs);
    const [second, other] = hit([a, b]);
    assert.equal(second?.hits, 2);
    assert.equal(other?.hits, 1);
    assert.ok((second?.resetInMs ?? 0) <= (first?.resetInMs ?? 0), 'the end does not move');
    await sleep((second?.resetInMs ?? 0) + 1);
    assert.equal(hit([a])[0]?.hits, 1);
  });

  test('the same key with another window length is another counter', () => {
    const hit = createMemoryCounters();
    hit([{ key: 'k', windowMs: 1_000 }]);
    assert.equal(hit([{ key: 'k', windowMs: 60_000 }])[0]?.hits, 1);
    assert.equal(hit([{ key: 'k', windowMs: 1_000 }])[0]?.hits, 2);
  });
});
