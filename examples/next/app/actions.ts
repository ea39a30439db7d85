'use server';
import { randomUUID } from 'node:crypto';
import { cookies } from 'next/headers';

// "Buy again": a new basket (a new cookie), so the shopper's next order is a new checkout.
// Until then a reload or a second tab shows the paid one. A Server Action: Next.js answers
// it only from the shop's own pages (their Origin), so another site cannot swap the basket.
export async function buyAgain(): Promise<void> {
  (await cookies()).set('basket', randomUUID(), { httpOnly: true, sameSite: 'lax', path: '/' });
}
