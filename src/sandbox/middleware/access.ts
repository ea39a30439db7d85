// Who may call a route, as middleware mounted on each route: `allow(PAYMENTS)`. Bearer keys
// and their scopes; a request without an Authorization header may instead carry the
// dashboard's session cookie (state/sessions.ts), which stands for the sandbox's own key. 401/403
// bodies carry both `message` (the flat provider error) and `error_message` (the provider's
// authentication form) so that clients written against either shape read them.

import type { MiddlewareHandler } from 'hono';
import { json } from '../../http/json.ts';
import type { SandboxConfig, SandboxEnv } from '../context.ts';
import type { Sessions } from '../state/sessions.ts';

/**
 * Who may call a route:
 * - `{ scopes: [...] }` an API key holding at least one of these scopes (provider routes),
 * - `'key'` any valid API key whatever its scopes (the sandbox's control routes),
 * - `'public'` nobody needs a key (pages a browser opens, the 3DS TermUrl).
 */
export type Access = { scopes: readonly string[] } | 'key' | 'public';

// Access rules shared by the route modules, named after the seed's scopes.
export const PAYMENTS: Access = { scopes: ['payments'] };
export const PAYMENT_INSTRUMENTS: Access = { scopes: ['payment_instruments'] };
export const TRANSACTIONS_HISTORY: Access = { scopes: ['transactions.history'] };
/** The seed lists both scopes together for the profile reads: either one suffices. */
export const PROFILE_READ: Access = { scopes: ['user.profile', 'user.profile_readonly'] };
/** The sandbox's control surface: any valid test key, whatever its scopes. */
export const CONTROL: Access = 'key';
/** Pages a shopper's browser opens (challenge, bank, voucher, TermUrl): no key. */
export const PUBLIC: Access = 'public';

function unauthorized(message: string): Response {
  return json({ error_code: 'NOT_AUTHORIZED', message, error_message: message }, 401, {
    'www-authenticate': 'Bearer',
  });
}

/** Returns null when the request may proceed, else the 401/403 response. */
export function authorize(
  request: Request,
  access: Access,
  config: SandboxConfig,
  sessions?: Sessions,
): Response | null {
  if (access === 'public') return null;
  const header = request.headers.get('authorization');
  // Looked at only without a key: the provider routes' clients never pay for it.
  if (header === null && sessions?.admits(request)) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return unauthorized('access token required');
  const key = match[1]!;
  if (key.startsWith('sk_live_')) {
    return unauthorized('live keys are refused: the sandbox accepts only sk_test_ keys');
  }
  const scopes = config.keys.get(key);
  if (!scopes) return unauthorized('invalid access token');
  if (access === 'key') return null;
  if (access.scopes.some((s) => scopes.has(s))) return null;
  const message = `request_not_allowed: the key lacks the scope ${access.scopes.join(' or ')}`;
  return json(
    { error_code: 'FORBIDDEN', message, error_message: message, status_code: '403' },
    403,
  );
}

const open: MiddlewareHandler<SandboxEnv> = (_c, next) => next();

/** The route's access rule: the 401/403 answer, or on to the route. */
export function allow(access: Access): MiddlewareHandler<SandboxEnv> {
  if (access === 'public') return open;
  return async (c, next) => {
    const { config, sessions } = c.env.sandbox;
    const denied = authorize(c.req.raw, access, config, sessions);
    if (denied) return denied;
    await next();
  };
}
