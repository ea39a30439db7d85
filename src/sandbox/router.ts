// A deliberately small router: method + path pattern (`/v0.1/checkouts/:id`) -> handler.
// Route modules export arrays of `Route`; `routes/index.ts` lists the modules, so a new
// area (merchant, payouts, readers ...) is one new file plus one line there.

import type { SandboxContext } from './context.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteRequest {
  request: Request;
  url: URL;
  /** Path parameters, already URI-decoded. */
  params: Record<string, string>;
  ctx: SandboxContext;
  /** `{scheme}://{host}` the client used; links in responses are built from it. */
  origin: string;
}

export type Handler = (req: RouteRequest) => Response | Promise<Response>;

/**
 * Who may call a route:
 * - `{ scopes: [...] }` an API key holding at least one of these scopes (provider routes),
 * - `'key'` any valid API key whatever its scopes (the sandbox's control routes),
 * - `'public'` nobody needs a key (pages a browser opens, the 3DS TermUrl).
 */
export type Access = { scopes: readonly string[] } | 'key' | 'public';

/**
 * A deprecated endpoint (the seed's Versioning list). The app answers it with RFC 9745
 * `Deprecation: @<unix-seconds>` and, when a successor exists, `Link: <...>; rel="successor-version"`.
 */
export interface Deprecation {
  /** Successor path pattern; `:merchant_code` is the sandbox merchant, other `:params` come from the request. */
  successor?: string;
}

export interface Route {
  method: Method;
  path: string;
  access: Access;
  deprecated?: Deprecation;
  /** Answer CORS preflight and add CORS headers (only the process route, for a direct mode). */
  cors?: boolean;
  handler: Handler;
}

interface Compiled {
  route: Route;
  segments: readonly string[];
}

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: Method[]; cors: boolean }
  | { kind: 'not-found' };

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** True when `pattern` (with `:param` or `*` segments) matches `path`; used by faults too. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  return matchSegments(split(pattern), split(path));
}

function matchSegments(
  pattern: readonly string[],
  path: readonly string[],
): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = path[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(s);
      } catch {
        return null; // a malformed %-escape cannot name any resource
      }
    } else if (p !== '*' && p !== s) {
      return null;
    }
  }
  return params;
}

export class Router {
  readonly #routes: Compiled[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) this.#routes.push({ route, segments: split(route.path) });
    return this;
  }

  match(method: string, path: string): Match {
    const segments = split(path);
    const allowed: Method[] = [];
    let cors = false;
    for (const c of this.#routes) {
      const params = matchSegments(c.segments, segments);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      allowed.push(c.route.method);
      cors ||= c.route.cors === true;
    }
    return allowed.length > 0
      ? { kind: 'method-not-allowed', allowed, cors }
      : { kind: 'not-found' };
  }
}
