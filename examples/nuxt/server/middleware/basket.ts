import { randomUUID } from 'node:crypto';

// The shopper's basket: a random id in an HttpOnly cookie, set with the first page, so the
// widget's first request already names the basket.
export default defineEventHandler((event) => {
  if (getCookie(event, 'basket') === undefined) {
    setCookie(event, 'basket', randomUUID(), { path: '/', httpOnly: true, sameSite: 'lax' });
  }
});
