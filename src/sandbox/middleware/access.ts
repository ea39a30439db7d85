// Bearer authentication and scope checks. 401/403 bodies carry both `message` (the flat
// provider error) and `error_message` (the provider's authentication form) so that clients
// written against either shape read them. A request without an Authorization header may
// instead carry the dashboard's session cookie (sessions.ts), which stands for the sandbox's
// own key.

import { json } from '../../http/json.ts';
import type { SandboxConfig } from '../context.ts';
import type { Access } from './route.ts';
import type { Sessions } from './sessions.ts';

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
