// What the routes that act on a checkout share: finding it (the provider's 404 when it is
// unknown) and answering it in the provider's shape.
import { json } from '../../http/json.ts';
import type { SandboxContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { CheckoutRecord, Frozen } from '../state/records.ts';
import { checkoutJson } from './serialize.ts';

export function findCheckout(ctx: SandboxContext, id: string): Frozen<CheckoutRecord> {
  const checkout = ctx.store.get('checkouts', id);
  if (!checkout) throw notFound('Checkout not found');
  return checkout;
}

/** A checkout as the provider answers it, as it is in the store now. */
export const checkoutAnswer = (ctx: SandboxContext, c: Frozen<CheckoutRecord>, status = 200) =>
  json(checkoutJson(c, ctx.store, ctx.config), status);
