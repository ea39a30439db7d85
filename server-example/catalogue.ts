/**
 * The shop's prices. The browser names a product; the price always comes from
 * here (or, on the demo's page route, from the server-side demo knobs), never
 * from anything the browser sends to the payment routes.
 */
import { PaymentHandlerError, type ResolvedCheckout } from 'payment-widget/server';

export interface Product {
  sku: string;
  name: string;
  /** In major units: 10 means 10.00. */
  amount: number;
  currency: string;
}

export const CATALOGUE: readonly Product[] = [
  { sku: 'poster', name: 'Sandbox poster', amount: 10, currency: 'EUR' },
  { sku: 'mug', name: 'Sandbox mug', amount: 12.5, currency: 'EUR' },
];

export const DEFAULT_PRODUCT: Product = CATALOGUE[0]!;

export function findProduct(sku: unknown): Product | undefined {
  return typeof sku === 'string' ? CATALOGUE.find((p) => p.sku === sku) : undefined;
}

/**
 * The product an order the widget sends names (`order='{"sku":"mug"}'` or `order="mug"`);
 * a 400 naming `order.sku` when it names none of this shop's.
 */
export function productOf(order: unknown): Product {
  const sku =
    typeof order === 'object' && order !== null && 'sku' in order
      ? (order as { sku: unknown }).sku
      : order;
  const product = findProduct(sku);
  if (product === undefined) {
    throw new PaymentHandlerError(
      400,
      'INVALID',
      'order.sku is not a product of this shop',
      'order.sku',
    );
  }
  return product;
}

/**
 * `resolveCheckout` for orders the widget sends: everything but the product name is
 * ignored, so a tampered amount in the order changes nothing.
 */
export function resolveOrder(order: unknown): ResolvedCheckout {
  const product = productOf(order);
  return { amount: product.amount, currency: product.currency, description: product.name };
}
