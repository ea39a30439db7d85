// The seed's deprecated endpoints (its Versioning section) answer as before, with the headers
// that say so (RFC 9745 and RFC 8288), added by `deprecated(...)` mounted on each of them:
//   Deprecation: @1704067200                     (the instant the endpoint became deprecated)
//   Link: <http://host/v1.0/merchants/M/payouts?start_date=...>; rel="successor-version"
// The seed leaves the deprecation dates "not shown"; the sandbox uses one fixed instant,
// 2024-01-01T00:00:00Z, for all of them. The operator endpoints have no successor inside the
// seed (the provider points to its members API, which the sandbox does not serve), so they
// carry the Deprecation header without a Link. Mounted before the access rule, so that a 401
// says the endpoint is deprecated too.

import type { MiddlewareHandler } from 'hono';
import { baseUrl, type SandboxEnv } from '../context.ts';

export const DEPRECATED_SINCE = Date.UTC(2024, 0, 1) / 1000;

/**
 * Adds the Deprecation header, and with a `successor` path pattern (`:merchant_code` is the
 * sandbox merchant, other `:params` come from the request) the successor Link; the query
 * string carries over. The URL is parsed only for a successor link.
 */
export function deprecated(successor?: string): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    await next();
    const response = c.res;
    // A dropped connection (fault injection) has immutable headers and nobody to read them.
    if (response.status === 0) return;
    response.headers.set('deprecation', `@${DEPRECATED_SINCE}`);
    if (successor === undefined) return;
    const { merchantCode } = c.env.sandbox.config;
    const path = successor.replace(/:([a-z_]+)/g, (_, name: string) =>
      encodeURIComponent(name === 'merchant_code' ? merchantCode : (c.req.param(name) ?? '')),
    );
    response.headers.append(
      'link',
      `<${baseUrl(c)}${path}${new URL(c.req.url).search}>; rel="successor-version"`,
    );
  };
}
