// The one rule for URLs a shopper's browser may be sent to, shared by the
// widget (before it follows a next step) and the companion handler (before it
// relays one, and for the provider base URL that may carry the API key over
// plain http); the sandbox asks it which hosts are loopback. Every such URL comes from a provider response relayed by the
// merchant's backend; a compromised or buggy hop must not be able to send the
// shopper to `javascript:`, `data:` or a plain-http page where card data could
// be phished. https everywhere; http only where it cannot leave the machine.
// No imports and no DOM: the Node build bundles it as it is.

/**
 * A host that never leaves the machine: `localhost`, `127.0.0.0/8` or `::1`,
 * as a WHATWG URL spells its `hostname` (IPv6 in brackets; `::1` is accepted
 * bare too). Subdomains of `localhost` are not: whether they resolve to
 * loopback depends on the browser or the resolver, so they may reach a network.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]' || hostname === '::1') return true;
  // The URL parser has already normalised IPv4 shorthands ("127.1", "0x7f.1")
  // to dotted quads, so a prefix test on the canonical form is exact.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Whether a browser may be sent to `url`: absolute https, or http on a loopback
 * host (the local sandbox). Userinfo (`https://a@b`) is refused: it is a classic
 * way to make a hostile host look like a known one.
 */
export function isSafeBrowserUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return parsed.hostname !== '';
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
}

/** `url` with `fields` appended to its query (kept in order, existing query kept). */
export function withQuery(url: string, fields: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(fields)) parsed.searchParams.append(key, value);
  return parsed.href;
}
