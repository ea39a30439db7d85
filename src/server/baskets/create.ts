/**
 * One checkout at the provider, for what the merchant's server decided: the handler's return
 * and webhook URLs added, the body checked against the provider's schema, and the checkout
 * watched for reconciliation from then on.
 */
import {
  type Checkout,
  type CheckoutCreateBody,
  CheckoutCreateBodySchema,
  describeIssue,
} from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import type { HandlerConfig, ResolvedCheckout } from '../options/index.ts';
import { allowedResultPage } from '../options/result-pages.ts';
import type { Watchlist } from '../outcomes/reconcile.ts';
import type { ProviderClient } from '../provider/client.ts';
import type { CallContext } from '../types.ts';
import { returnUrlFor } from './result-page.ts';

/** What creating a checkout needs of the handler. */
export interface CreateDeps {
  config: HandlerConfig;
  client: ProviderClient;
  /** The checkouts reconciliation watches. */
  watchlist: Pick<Watchlist, 'watch'>;
}

/**
 * A create body's fields that resolveCheckout, or the handler's options, name otherwise
 * (`amount`, `currency`, `description` and `purpose` keep their names; the URLs, made from
 * `publicUrl` and a checked `resultPage`, cannot fail).
 */
const RESOLVED_NAMES: Record<string, string> = {
  checkout_reference: 'reference',
  customer_id: 'customerId',
  valid_until: 'validUntil',
  merchant_code: 'provider.merchantCode',
  pay_to_email: 'provider.payToEmail',
};

/** A checkout as the provider answers a create: it always has its id. */
export type CreatedCheckout = Checkout & { id: string };

/**
 * The checkout's own result page, refused (and never sent to the provider) unless it is a
 * site path or a URL on an allowed origin: `GET /return` follows it, so anything else would
 * be an open redirect.
 */
function checkedResultPage(config: HandlerConfig, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const page = allowedResultPage(value, config.allowedOrigins);
  if (page !== undefined) return page;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : typeof value;
  config.log({
    level: 'error',
    message: `resolveCheckout returned resultPage ${shown}: it must be a site path (/orders/42) or a URL on one of allowedOrigins (${[...config.allowedOrigins].join(', ')})`,
    field: 'resultPage',
    problem: 'foreign-result-page',
  });
  throw new PaymentHandlerError(
    500,
    'INVALID_RESOLVED_CHECKOUT',
    'The checkout’s result page is not one this shop may send shoppers to',
    'resultPage',
  );
}

/**
 * The create body for what the merchant's server decided, checked against the provider's
 * schema: a 500 `INVALID_RESOLVED_CHECKOUT` when it cannot be a checkout. The basket checks
 * it before it retires its open checkout for it.
 */
export function createBody(
  config: HandlerConfig,
  resolved: ResolvedCheckout,
  reference: string,
): CheckoutCreateBody {
  const { provider } = config;
  // A card is saved to a customer: without one the provider refuses the payment, after the
  // shopper has typed their card. Said to the developer now, by name.
  if (resolved.purpose === 'SETUP_RECURRING_PAYMENT' && !resolved.customerId) {
    config.log({
      level: 'error',
      message:
        'resolveCheckout returned purpose SETUP_RECURRING_PAYMENT without customerId: return the provider customer the card is saved to (customers.create makes one)',
      field: 'customerId',
      problem: 'setup-without-customer',
    });
    throw new PaymentHandlerError(
      500,
      'INVALID_RESOLVED_CHECKOUT',
      'A checkout that saves the card needs a customer',
      'customerId',
    );
  }
  const redirect = resolved.redirect ?? true;
  const resultPage = checkedResultPage(config, resolved.resultPage);
  const candidate: CheckoutCreateBody = {
    checkout_reference: reference,
    amount: resolved.amount,
    currency: resolved.currency,
    merchant_code: provider.merchantCode,
    return_url: `${config.publicUrl}/webhook`,
    ...(redirect ? { redirect_url: returnUrlFor(config.publicUrl, resultPage) } : {}),
    ...(provider.payToEmail === undefined ? {} : { pay_to_email: provider.payToEmail }),
    ...(resolved.description === undefined ? {} : { description: resolved.description }),
    ...(resolved.customerId === undefined ? {} : { customer_id: resolved.customerId }),
    ...(resolved.purpose === undefined ? {} : { purpose: resolved.purpose }),
    ...(resolved.validUntil === undefined ? {} : { valid_until: resolved.validUntil }),
  };
  const parsed = CheckoutCreateBodySchema.safeParse(candidate);
  if (!parsed.success) {
    // The merchant's resolveCheckout returned something unusable: their bug, not the shopper's.
    // Said by the name they wrote it under, to the log and to createCheckout()'s caller.
    const issue = describeIssue(parsed.error, candidate);
    const field = RESOLVED_NAMES[issue.param] ?? issue.param;
    const problem = `${field}${issue.message.slice(issue.param.length)}`;
    config.log({
      level: 'error',
      message: `resolveCheckout returned an invalid checkout: ${problem}`,
      field,
    });
    throw new PaymentHandlerError(
      500,
      'INVALID_RESOLVED_CHECKOUT',
      `The order could not be priced: ${problem}`,
      field,
    );
  }
  return parsed.data;
}

export async function createProviderCheckout(
  deps: CreateDeps,
  resolved: ResolvedCheckout,
  reference: string,
  at?: CallContext,
): Promise<CreatedCheckout> {
  const { config, client } = deps;
  const checkout = await client.checkouts.create(createBody(config, resolved, reference), at);
  if (checkout.id == null) {
    throw new PaymentHandlerError(
      502,
      'INVALID_PROVIDER_RESPONSE',
      'The provider created a checkout without an id',
    );
  }
  const id = checkout.id;
  await deps.watchlist.watch(id, false);
  config.log({
    level: 'info',
    message: 'checkout created',
    checkoutId: id,
    requestId: at?.requestId,
  });
  return { ...checkout, id };
}
