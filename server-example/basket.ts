/**
 * The shopper's basket, kept in a cookie: the basket pattern a shop copies. Its id goes to
 * the payment handler as the checkout's `reference`, so a reload, a second tab or a return
 * from the bank's app answers with the basket's one checkout (open, or paid) instead of a
 * new one to pay again. The cookie is signed (a shopper cannot name someone else's basket),
 * `HttpOnly` (no script reads it) and `SameSite=Lax` (it comes along when the shopper
 * returns from the bank or the 3DS page by a top-level navigation). A new basket starts only
 * when the shopper asks ("Buy again").
 */
import { parseSigned, serializeSigned } from 'hono/utils/cookie';

const COOKIE = 'shop_basket';
/** A basket outlives a browser restart: a shopper who comes back tomorrow finds their order. */
const MAX_AGE_S = 30 * 24 * 60 * 60;
const ID = /^[0-9a-f-]{36}$/;

export interface Baskets {
  /** The shopper's basket: here, the one the request's cookie names when its signature holds. */
  current(request: Request): Promise<string | undefined>;
  /**
   * A new basket, and the `Set-Cookie` value that gives it to the shopper (none where the
   * basket is kept elsewhere: the static site's worker keeps it in the browser's storage).
   */
  start(): Promise<{ id: string; cookie?: string }>;
}

/** 32 random bytes as hex: a signing secret. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `secret` signs the cookies (HMAC-SHA256, Hono's signed cookies). */
export function cookieBaskets(secret: string): Baskets {
  return {
    async current(request) {
      const cookies = await parseSigned(request.headers.get('cookie') ?? '', secret, COOKIE);
      const id = cookies[COOKIE];
      return typeof id === 'string' && ID.test(id) ? id : undefined;
    },
    async start() {
      const id = crypto.randomUUID();
      const cookie = await serializeSigned(COOKIE, id, secret, {
        path: '/',
        maxAge: MAX_AGE_S,
        httpOnly: true,
        sameSite: 'Lax',
      });
      return { id, cookie };
    },
  };
}

/** The checkout reference of a basket: the shop's order number for it. */
export const orderReference = (basket: string) => `order-${basket}`;
