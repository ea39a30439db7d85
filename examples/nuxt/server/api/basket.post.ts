import { randomUUID } from 'node:crypto';

// "Buy again" on a paid page: a new basket (a new cookie), so the shopper's next order is a
// new checkout. Until then a reload or a second tab shows the paid one. Only from the shop's
// own pages: another site must not swap a shopper's basket.
export default defineEventHandler((event) => {
  if (getRequestHeader(event, 'origin') !== process.env.SHOP_ORIGIN) {
    throw createError({ statusCode: 403 });
  }
  setCookie(event, 'basket', randomUUID(), { path: '/', httpOnly: true, sameSite: 'lax' });
  return sendNoContent(event);
});
