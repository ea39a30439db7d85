import { randomUUID } from 'node:crypto';
import type { PageServerLoad } from './$types';

// The shopper's basket: a random id in an HttpOnly cookie, set with the page, so the
// widget's first request already names the basket.
export const load: PageServerLoad = ({ cookies }) => {
  if (cookies.get('basket') === undefined) {
    cookies.set('basket', randomUUID(), { path: '/', httpOnly: true, sameSite: 'lax' });
  }
};
