/**
 * What of the provider's answers may reach the browser.
 */

import type { Checkout, NextStep, PublicCheckout } from '../../schemas/index.ts';
import { isSafeBrowserUrl } from '../../shared/url.ts';

export type { PublicCheckout };

/**
 * Drops `pay_to_email` (the merchant's login) and `return_url` (the webhook
 * address, which an attacker could otherwise hammer) from a checkout, and a
 * boleto's `url` (the voucher the widget links to) that fails the next steps'
 * rule: the barcode still pays it, and the shopper is never sent there.
 */
export function toPublicCheckout(checkout: Checkout): PublicCheckout {
  const { pay_to_email: _email, return_url: _webhook, ...rest } = checkout;
  if (!unsafeBoleto(checkout)) return rest;
  const { url: _unsafe, ...boleto } = checkout.boleto ?? {};
  return { ...rest, boleto };
}

/** Whether the checkout's boleto voucher has a URL the browser must not be sent to. */
export const unsafeBoleto = (checkout: Checkout): boolean =>
  checkout.boleto?.url != null && !isSafeBrowserUrl(checkout.boleto.url);

/**
 * Names the first URL of a next step the browser must not be sent to, or
 * `undefined` when all are safe. The widget navigates to `url`/`full` and
 * posts the 3DS form to `url`, whose answer lands on `payload.TermUrl`: a
 * hostile value in any of them would carry the user (and a form with card
 * authentication data) to a page of the attacker's choosing.
 */
export function unsafeNextStepField(step: NextStep): string | undefined {
  if (!isSafeBrowserUrl(step.url)) return 'next_step.url';
  if (step.full != null && !isSafeBrowserUrl(step.full)) return 'next_step.full';
  const termUrl = step.payload?.TermUrl;
  if (termUrl != null && !isSafeBrowserUrl(termUrl)) return 'next_step.payload.TermUrl';
  return undefined;
}
