/**
 * `/checkouts`: create a checkout with the amount the merchant's server decides, read it
 * (the widget's confirmation, which also reports a final status), and process it after
 * checking the body and any next step the provider answers with.
 */
import { Hono } from 'hono';
import { errorJson } from '../../http/errors.ts';
import { json } from '../../http/json.ts';
import {
  type CheckoutCreateBody,
  CheckoutCreateBodySchema,
  CheckoutProcessBodySchema,
  describeIssue,
} from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import { requireAllowedOrigin } from '../origin.ts';
import { toPublicCheckout, unsafeNextStepField } from '../public.ts';
import { checkoutIdFrom, jsonBody, type RouteDeps, readJson, requireCustomer } from './deps.ts';

export function checkoutRoutes(deps: RouteDeps): Hono {
  const { config, client, report } = deps;
  const { options, log } = config;
  const fromPage = requireAllowedOrigin(config.allowedOrigins);
  const app = new Hono();

  app.post('/', fromPage, ...jsonBody(deps), async (c) => {
    const body = await readJson(c.req.raw);
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('order' in body)) {
      throw new PaymentHandlerError(400, 'MISSING', 'order is required', 'order');
    }
    // Everything else in the body (amount, currency, ...) is ignored on purpose.
    const resolved = await options.resolveCheckout((body as { order: unknown }).order, c.req.raw);
    const redirect = resolved.redirect ?? true;
    const candidate: CheckoutCreateBody = {
      checkout_reference: resolved.reference ?? crypto.randomUUID(),
      amount: resolved.amount,
      currency: resolved.currency,
      merchant_code: options.merchantCode,
      return_url: `${config.publicUrl}/webhook`,
      ...(redirect ? { redirect_url: `${config.publicUrl}/return` } : {}),
      ...(options.payToEmail === undefined ? {} : { pay_to_email: options.payToEmail }),
      ...(resolved.description === undefined ? {} : { description: resolved.description }),
      ...(resolved.customerId === undefined ? {} : { customer_id: resolved.customerId }),
      ...(resolved.purpose === undefined ? {} : { purpose: resolved.purpose }),
      ...(resolved.validUntil === undefined ? {} : { valid_until: resolved.validUntil }),
    };
    const parsed = CheckoutCreateBodySchema.safeParse(candidate);
    if (!parsed.success) {
      // The merchant's resolveCheckout returned something unusable: our bug, not the user's.
      const issue = describeIssue(parsed.error, candidate);
      log({
        level: 'error',
        message: `resolveCheckout returned an invalid checkout: ${issue.message}`,
      });
      return errorJson(500, 'INVALID_RESOLVED_CHECKOUT', 'The order could not be priced');
    }
    const checkout = await client.checkouts.create(parsed.data);
    log({ level: 'info', message: 'checkout created', checkoutId: checkout.id ?? undefined });
    return json(toPublicCheckout(checkout), 201);
  });

  app.get('/:id', async (c) => {
    const checkout = await client.checkouts.get(checkoutIdFrom(c.req.param('id'), 'id'));
    // The widget polls here: a final status seen here counts as a confirmation.
    await report(checkout);
    return json(toPublicCheckout(checkout));
  });

  app.put('/:id', fromPage, ...jsonBody(deps), async (c) => {
    const id = checkoutIdFrom(c.req.param('id'), 'id');
    const raw = await readJson(c.req.raw);
    const parsed = CheckoutProcessBodySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = describeIssue(parsed.error, raw);
      return errorJson(400, issue.code, issue.message, issue.param);
    }
    const body = parsed.data;
    if (body.token !== undefined && body.customer_id !== undefined) {
      // A token is a saved card: only its owner's session may charge it.
      await requireCustomer(deps, c.req.raw, body.customer_id, 'customer_id');
    }
    const result = await client.checkouts.process(id, body);
    if (result.kind === 'next_step') {
      const unsafe = unsafeNextStepField(result.next_step);
      if (unsafe !== undefined) {
        log({
          level: 'error',
          message: 'the provider sent an unsafe next step URL',
          checkoutId: id,
          field: unsafe,
        });
        return errorJson(
          502,
          'UNSAFE_NEXT_STEP',
          'The payment provider sent an unsafe redirect',
          unsafe,
        );
      }
      log({ level: 'info', message: 'checkout needs user action', checkoutId: id });
      return json({ next_step: result.next_step }, 202);
    }
    await report(result.checkout);
    log({
      level: 'info',
      message: result.recovered
        ? 'checkout processed (read back after a lost answer)'
        : 'checkout processed',
      checkoutId: id,
      checkoutStatus: result.checkout.status ?? undefined,
    });
    return json(toPublicCheckout(result.checkout));
  });

  return app;
}
