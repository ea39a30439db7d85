// Deprecated endpoints, in one table mirroring the seed's Versioning section, and the headers
// they answer with. Keeping the list here (rather than in each route module) means a module
// cannot forget the flag: `markDeprecated` sets it on whatever route serves a listed path.
//
// Headers (RFC 9745 and RFC 8288):
//   Deprecation: @1704067200                     (the instant the endpoint became deprecated)
//   Link: <http://host/v1.0/merchants/M/payouts?start_date=...>; rel="successor-version"
// The seed leaves the deprecation dates "not shown"; the sandbox uses one fixed instant,
// 2024-01-01T00:00:00Z, for all of them. The operator endpoints have no successor inside the
// seed (the provider points to its members API, which the sandbox does not serve), so they
// carry the Deprecation header without a Link.

import type { SandboxConfig } from '../context.ts';
import type { Deprecation, Route, RouteRequest } from './route.ts';

export const DEPRECATED_SINCE = Date.UTC(2024, 0, 1) / 1000;

/** `METHOD path` -> deprecation; paths are the router's patterns. */
const DEPRECATED_ENDPOINTS: ReadonlyMap<string, Deprecation> = new Map([
  ['GET /v0.1/me/transactions', { successor: '/v2.1/merchants/:merchant_code/transactions' }],
  [
    'GET /v0.1/me/transactions/history',
    { successor: '/v2.1/merchants/:merchant_code/transactions/history' },
  ],
  [
    'GET /v0.1/me/merchant-profile/bank-accounts',
    { successor: '/v1.1/merchants/:merchant_code/bank-accounts' },
  ],
  ['GET /v0.1/me/financials/payouts', { successor: '/v1.0/merchants/:merchant_code/payouts' }],
  ['GET /v0.1/me/accounts', {}],
  ['POST /v0.1/me/accounts', {}],
  ['GET /v0.1/me/accounts/:operator_id', {}],
  ['PUT /v0.1/me/accounts/:operator_id', {}],
  ['DELETE /v0.1/me/accounts/:operator_id', {}],
]);

/** Copies of `routes` with `deprecated` set for every endpoint the table lists. */
export function markDeprecated(routes: readonly Route[]): Route[] {
  return routes.map((route) => {
    const deprecation =
      route.deprecated ?? DEPRECATED_ENDPOINTS.get(`${route.method} ${route.path}`);
    return deprecation ? { ...route, deprecated: deprecation } : route;
  });
}

/**
 * Adds the Deprecation (and successor Link) headers; the query string carries over. The
 * request's params and URL are read only for a successor link.
 */
export function withDeprecation(
  response: Response,
  deprecation: Deprecation,
  req: Pick<RouteRequest, 'params' | 'url'>,
  config: SandboxConfig,
): Response {
  // A dropped connection (fault injection) has immutable headers and nobody to read them.
  if (response.status === 0) return response;
  response.headers.set('deprecation', `@${DEPRECATED_SINCE}`);
  if (deprecation.successor !== undefined) {
    const { params, url } = req;
    const path = deprecation.successor.replace(/:([a-z_]+)/g, (_, name: string) =>
      encodeURIComponent(name === 'merchant_code' ? config.merchantCode : (params[name] ?? '')),
    );
    response.headers.append('link', `<${url.origin}${path}${url.search}>; rel="successor-version"`);
  }
  return response;
}
