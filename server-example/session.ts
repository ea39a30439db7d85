/**
 * The demo's stand-in for a shop's login: one shopper account, "signed in" by a cookie that
 * the signed-in variant of the shop page sets. `authorizeCustomer` accepts this session only.
 */

import { parse } from 'hono/utils/cookie';

/** The demo's one shopper account; a real shop takes the id from its login session. */
export const DEMO_CUSTOMER_ID = 'demo-shopper';
const SESSION_COOKIE = 'demo_session';

/** The `Set-Cookie` value that signs the shopper in. */
export const SESSION_SET_COOKIE = `${SESSION_COOKIE}=${DEMO_CUSTOMER_ID}; Path=/; HttpOnly; SameSite=Lax`;

export function hasSession(request: Request): boolean {
  return (
    parse(request.headers.get('cookie') ?? '', SESSION_COOKIE)[SESSION_COOKIE] === DEMO_CUSTOMER_ID
  );
}
