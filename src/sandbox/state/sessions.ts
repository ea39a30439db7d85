// The dashboard's sign-in. The page never holds a key: it holds an HttpOnly cookie naming a
// random session that stands for the sandbox's own key, which `authorize` accepts when a
// request has no Authorization header. EventSource cannot send headers, so a cookie is also
// what lets the live updates stream authenticate.
//
// - Bound to loopback (the default), `GET /` from a browser opens a session by itself: the
//   sandbox accepts only test keys, and its default key is printed at start anyway. Only when
//   the Host header is a loopback name, so a page of another site whose name was made to
//   point at 127.0.0.1 (DNS rebinding) gets nothing.
// - Bound to any other interface, the page asks for the key once and trades it for a session
//   (`POST /sandbox/session` with `Authorization: Bearer ...`); the key is not kept in the page.
// - A session counts only on same-origin requests (`Sec-Fetch-Site: same-origin`): another
//   page on the same machine (another port is the same site) cannot ride on the cookie.

import { isLoopbackHost } from '../../shared/url.ts';
import { randomBytes, toBase64 } from './ids.ts';

/** More than enough for every browser a developer opens; the oldest is forgotten first. */
const MAX_SESSIONS = 64;

/** The host name of a `Host` header (`127.0.0.1:4010` -> `127.0.0.1`), as a URL spells it. */
function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return '';
  }
}

export class Sessions {
  /** Open a session on `GET /` without asking for the key (bound to loopback). */
  readonly automatic: boolean;
  readonly #tokens = new Set<string>();
  #cookieName = 'payment_sandbox_session';

  constructor(automatic: boolean) {
    this.automatic = automatic;
  }

  /** Cookies are per host, not per port: two sandboxes on 127.0.0.1 must not share one. */
  bindPort(port: number): void {
    this.#cookieName = `payment_sandbox_session_${port}`;
  }

  /** A new session, as the `Set-Cookie` value that carries it. */
  open(): string {
    const token = toBase64(randomBytes(24), true);
    this.#tokens.add(token);
    if (this.#tokens.size > MAX_SESSIONS) {
      const oldest = this.#tokens.values().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    return `${this.#cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`;
  }

  /** Whether `GET /` may open a session by itself for this request. */
  opensFor(request: Request): boolean {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    return this.automatic && isLoopbackHost(hostnameOf(host));
  }

  /** True when the request comes from the dashboard's own page with a live session. */
  admits(request: Request): boolean {
    if (this.#tokens.size === 0) return false;
    return request.headers.get('sec-fetch-site') === 'same-origin' && this.hasCookie(request);
  }

  /** True when the request carries a live session, wherever it comes from. */
  hasCookie(request: Request): boolean {
    const token = this.#tokenIn(request.headers.get('cookie'));
    return token !== undefined && this.#tokens.has(token);
  }

  #tokenIn(cookie: string | null): string | undefined {
    if (cookie === null) return undefined;
    const prefix = `${this.#cookieName}=`;
    for (const part of cookie.split(';')) {
      const trimmed = part.trim();
      if (trimmed.startsWith(prefix)) return trimmed.slice(prefix.length);
    }
    return undefined;
  }
}
