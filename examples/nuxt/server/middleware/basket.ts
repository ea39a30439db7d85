import { randomUUID } from 'node:crypto';

// The shopper's basket: a random id in an HttpOnly cookie, set with the first page, so the
// widget's first request already names the basket. Not on /api/, which 3-D Secure in the
// widget's iframe reaches from the bank's site (browsers refuse it there).
export default defineEventHandler((event) => {
  if (event.path.startsWith('/api/')) return;
  if (getCookie(event, 'basket') === undefined) {
    setCookie(event, 'basket', randomUUID(), { path: '/', httpOnly: true, sameSite: 'lax' });
  }
});
