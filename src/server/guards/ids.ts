/**
 * The ids a request names: checked before they reach a provider path or a log line, and a
 * customer's saved cards only for the requests the merchant's `authorizeCustomer` allows.
 */
import { PaymentHandlerError } from '../errors.ts';

// Ids go into provider paths and logs: keep them to URL-safe characters. `.` and `..`
// alone are refused too: as a path segment they would walk up the provider's URL.
const CHECKOUT_ID = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/;
const CUSTOMER_ID = /^(?!\.\.?$)[A-Za-z0-9._~@:+-]{1,255}$/;

/** The checkout id in `field`, or a 400 naming the field. */
export function checkoutIdFrom(raw: string | null | undefined, field: string): string {
  if (raw === null || raw === undefined || raw === '') {
    throw new PaymentHandlerError(400, 'MISSING', `${field} is required`, field);
  }
  if (!CHECKOUT_ID.test(raw)) {
    throw new PaymentHandlerError(400, 'INVALID', `${field} is not a checkout id`, field);
  }
  return raw;
}

type AuthorizeCustomer = (request: Request, customerId: string) => boolean | Promise<boolean>;

/** Refuses unless `authorize` lets this request use the customer's saved cards. */
export async function requireCustomer(
  authorize: AuthorizeCustomer | undefined,
  request: Request,
  customerId: string,
  field: string,
): Promise<void> {
  if (!CUSTOMER_ID.test(customerId)) {
    throw new PaymentHandlerError(400, 'INVALID', `${field} is not a customer id`, field);
  }
  const allowed = authorize !== undefined && (await authorize(request, customerId)) === true;
  if (!allowed) {
    throw new PaymentHandlerError(403, 'FORBIDDEN', 'This customer is not yours to use', field);
  }
}
