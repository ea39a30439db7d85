/**
 * URL checks shared by the client (which base URL may carry the API key) and
 * the handler (which next-step URL may be handed to the browser).
 */

/** True for `localhost`, `127.0.0.0/8` and `::1`: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  // `new URL` already normalises IPv4 forms such as `127.1` or `0x7f.1` to dotted quads.
  const quad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return quad !== null && quad[1] === '127';
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL is safe to send a user's browser to: https anywhere, or http
 * only on a loopback host (the local sandbox). Userinfo (`https://a@b`) is
 * refused: it is a classic way to make a hostile host look like a known one.
 */
export function isSafeBrowserUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  const parsed = parse(url);
  if (parsed === undefined || parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
}

/**
 * Checks the provider base URL before any key is sent to it: the key is a
 * bearer credential, so plain http is allowed only where nobody can listen in.
 */
export function assertSafeBaseUrl(baseUrl: string): URL {
  const parsed = parse(baseUrl);
  if (parsed === undefined) throw new TypeError('baseUrl is not an absolute URL');
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError('baseUrl must not contain credentials');
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new TypeError('baseUrl must not contain a query or fragment');
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return parsed;
  throw new TypeError(
    `baseUrl must use https (plain http is accepted only on a loopback host), got ${parsed.protocol}//${parsed.host}`,
  );
}
