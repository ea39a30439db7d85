/**
 * Who is asking: the address a request came from, as the rate limits key their counters.
 *
 * The connecting address is the runtime's to know, not the request's: the handler reads it
 * from the arguments the runtime calls it with (`toNodeListener`'s socket, Bun's
 * `server.requestIP`, Deno's `info.remoteAddr`, hono/aws-lambda's `requestContext`), from the `ip` srvx puts on the requests it
 * makes (TanStack Start's server routes), or from the merchant's `clientAddress`.
 * Behind proxies, the last `trustedProxies` entries of `X-Forwarded-For` were written by
 * them and the one before is the client; anything further left the client wrote itself.
 *
 * Addresses are bucketed: IPv4 as it is (an IPv4-mapped IPv6 address counts as its IPv4
 * one), IPv6 by its first `ipv6Prefix` bits (default 64), since one subscriber gets a whole
 * /64 (often a /56 or /48) and picks a new address in it at will.
 */
import ipaddr from 'ipaddr.js';

/** What the handler needs to know of a request to find its address. */
interface AddressSources {
  /** The merchant's `clientAddress`, which wins over everything else. */
  clientAddress: ((request: Request, env: unknown) => string | undefined) | undefined;
  /** Proxies in front of the handler that append to `X-Forwarded-For`. */
  trustedProxies: number;
}

interface NodeEnv {
  incoming?: { socket?: { remoteAddress?: unknown } };
}
interface BunServer {
  requestIP?: (request: Request) => { address?: unknown } | null;
}
interface DenoInfo {
  remoteAddr?: { hostname?: unknown };
}
/** hono/aws-lambda's env: the event's context, from API Gateway (REST, HTTP) or a Function URL. */
interface LambdaEnv {
  requestContext?: { identity?: { sourceIp?: unknown } | null; http?: { sourceIp?: unknown } };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The connecting address as the runtime passed it with the request: `toNodeListener` (and
 * any @hono/node-server) gives `{ incoming }`, `Bun.serve` its server, `Deno.serve` its info,
 * hono/aws-lambda `{ requestContext }` (its `sourceIp`);
 * a request srvx made carries it as `ip` (its socket's address, never a header's). Undefined
 * elsewhere (a Worker, a Next.js route): the merchant says it with `clientAddress`.
 */
export function runtimeAddress(request: Request, env: unknown): string | undefined {
  const srvx = (request as { ip?: unknown }).ip;
  if (typeof env !== 'object' || env === null) return text(srvx);
  const node = (env as NodeEnv).incoming?.socket;
  if (node !== undefined) return text(node.remoteAddress);
  // The address AWS saw connect, as hono/aws-lambda's getConnInfo reads it.
  const lambda = (env as LambdaEnv).requestContext;
  if (lambda) return text(lambda.http?.sourceIp ?? lambda.identity?.sourceIp);
  const bun = env as BunServer;
  if (typeof bun.requestIP === 'function') {
    try {
      return text(bun.requestIP(request)?.address);
    } catch {
      // Not Bun's server after all: an `env` of the merchant's with a method of that name.
      return undefined;
    }
  }
  return text((env as DenoInfo).remoteAddr?.hostname ?? srvx);
}

/**
 * The client's address: the merchant's `clientAddress`, else the runtime's, taking
 * `trustedProxies` hops back along `X-Forwarded-For`. Undefined when nothing says.
 */
export function clientAddressOf(
  request: Request,
  env: unknown,
  sources: AddressSources,
): string | undefined {
  if (sources.clientAddress !== undefined) return text(sources.clientAddress(request, env));
  const connected = runtimeAddress(request, env);
  if (sources.trustedProxies === 0) return connected;
  const forwarded = request.headers.get('x-forwarded-for');
  if (forwarded === null) return connected;
  // Each proxy appends the address it was reached from: read from the right, past our own.
  const hops = forwarded
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  if (hops.length === 0) return connected;
  return hops[Math.max(0, hops.length - sources.trustedProxies)];
}

/** `[2001:db8::1]:443` and `192.0.2.1:443` (some proxies add the port) without the port. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1] as string;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  return v4 ? (v4[1] as string) : address;
}

/** A plain dotted IPv4 address, each part 0-255 without leading zeros: the common case. */
const DOTTED = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The bucket an address counts in: `ip:192.0.2.1`, `ip:2001:db8:1:2::/64`. A text that is no
 * IP address (a proxy that writes names) counts as itself, lower-cased.
 */
export function addressBucket(address: string, ipv6Prefix: number): string {
  const bare = withoutPort(address.trim());
  // Most requests: IPv4, or IPv4 as a dual-stack socket reports it. ipaddr.js would take
  // ten times as long to find that out.
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  if (DOTTED.test(v4)) return `ip:${v4}`;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = bare.includes(':') ? ipaddr.IPv6.parse(bare) : ipaddr.IPv4.parse(bare);
  } catch {
    return `ip:${bare.toLowerCase()}`;
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  if (ip.kind() === 'ipv4' || ipv6Prefix >= 128) return `ip:${ip.toString()}`;
  const v6 = ip as ipaddr.IPv6;
  const parts = v6.parts.map((part, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return bits === 0 ? 0 : part & (0xffff << (16 - bits));
  });
  return `ip:${new ipaddr.IPv6(parts).toString()}/${ipv6Prefix}`;
}
