/**
 * The provider base URL check. Which hosts count as loopback is the widget's
 * and the handler's one URL rule (src/shared/url.ts).
 */
import { isLoopbackHost } from '../../shared/url.ts';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
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
  // As the API reference writes its endpoints (.../v0.1/checkouts): every call would 404. Only
  // the version the calls add: a gateway of the merchant's own may well end in /v2.
  if (/\/v0\.1\/?$/.test(parsed.pathname)) {
    throw new TypeError(
      `baseUrl must end before the API's version (each call adds it: /v0.1/checkouts), got ${baseUrl}`,
    );
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return parsed;
  throw new TypeError(
    `baseUrl must use https (plain http is accepted only on a loopback host), got ${parsed.protocol}//${parsed.host}`,
  );
}
