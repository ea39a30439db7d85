// What a route module exports: method + path pattern (`/v0.1/checkouts/:id`) -> handler,
// with who may call it. Route modules export arrays of `Route`; `routes.ts` lists the
// modules, so a new area (merchant, payouts, readers ...) is one new file plus one line
// there. `app.ts` mounts them on Hono.

import type { SandboxContext } from '../context.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteRequest {
  readonly request: Request;
  readonly url: URL;
  /** Path parameters, already URI-decoded. */
  readonly params: Record<string, string>;
  readonly ctx: SandboxContext;
  /** `{scheme}://{host}` the client used; links in responses are built from it. */
  readonly origin: string;
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
  /**
   * `false` keeps it out of the request log: the control surface's own reads, which the dashboard
   * repeats after every change, would otherwise push the requests a developer looks for out.
   */
  recorded?: false;
  handler: Handler;
}
