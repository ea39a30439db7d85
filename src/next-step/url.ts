// Every URL the widget follows comes from a provider response relayed by the
// merchant's backend; a compromised or buggy hop must not be able to send the
// shopper to `javascript:`, `data:` or a plain-http page where card data could
// be phished. https everywhere; http only where it cannot leave the machine.

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  // The URL parser has already normalised IPv4 shorthands ("127.1", "0x7f.1")
  // to dotted quads, so a prefix test on the canonical form is exact.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Absolute https URL, or http on a loopback host (127.0.0.0/8, localhost, [::1]). */
export function isSafeUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return parsed.hostname !== '';
  if (parsed.protocol === 'http:') return isLoopbackHost(parsed.hostname);
  return false;
}

/** `url` with `fields` appended to its query (kept in order, existing query kept). */
export function withQuery(url: string, fields: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(fields)) parsed.searchParams.append(key, value);
  return parsed.href;
}
