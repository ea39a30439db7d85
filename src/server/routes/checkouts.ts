/**
 * `/checkouts`: the basket's checkout for the amount the merchant's server decides (its open
 * or paid one, or a new one: baskets/), read it (the widget's confirmation, which also
 * reports a final status), each answered with a pending checkout's open step (answer.ts);
 * process it after checking the body and any next step the provider answers with (kept as
 * the open step), and after a failure make the basket's next one (`/:id/retry`).
 * Paying is rate-limited (middleware/rate-limit.ts, mounted after the checks that answer 400
 * or 403) before the provider is called; creating is, once the basket is about to make a new
 * checkout (an answer that finds its checkout counts nothing).
 * Reports of a final status run the hooks in the background (outcomes/dispatch.ts): these
 * answers never wait on the merchant.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { errorJson } from '../../http/errors.ts';
import { json } from '../../http/json.ts';
import { CheckoutProcessBodySchema, describeIssue } from '../../schemas/index.ts';
import type { BasketCheckout } from '../baskets/baskets.ts';
import { PaymentHandlerError } from '../errors.ts';
import { requireCustomer } from '../guards/ids.ts';
import { requireAllowedOrigin } from '../middleware/origin.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import type { HandlerConfig } from '../options/index.ts';
import type { ProcessResult } from '../provider/client.ts';
import { ProviderError } from '../provider/errors.ts';
import { toPublicCheckout, unsafeBoleto, unsafeNextStepField } from '../provider/public.ts';
import type { HandlerEnv } from '../types.ts';
import { checkoutAnswers } from './answer.ts';
import {
  callContext,
  checkoutIdParam,
  jsonBody,
  type RouteDeps,
  requireJsonBody,
} from './context.ts';

const UNSAFE = 'the provider sent an unsafe next step URL';

/** `POST /checkouts`: the body's `order` (400 when missing), as `c.var.order`. */
const orderBody: MiddlewareHandler<HandlerEnv> = async (c, next) => {
  const body = await requireJsonBody(c.req.raw);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('order' in body)) {
    throw new PaymentHandlerError(400, 'MISSING', 'order is required', 'order');
  }
  // Everything else in the body (amount, currency, ...) is ignored on purpose.
  c.set('order', (body as { order: unknown }).order);
  await next();
};

/**
 * `PUT /checkouts/:id`: the process body checked (400 naming the field), a customer named
 * only from its owner's session (403), as `c.var.payment`.
 */
function paymentBody(config: HandlerConfig): MiddlewareHandler<HandlerEnv> {
  return async (c, next) => {
    const raw = await requireJsonBody(c.req.raw);
    const parsed = CheckoutProcessBodySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = describeIssue(parsed.error, raw);
      return errorJson(400, issue.code, issue.message, issue.param);
    }
    const body = parsed.data;
    if (body.customer_id !== undefined) {
      // A customer's saved cards (a token) and account are only for their own session.
      await requireCustomer(config.authorizeCustomer, c.req.raw, body.customer_id, 'customer_id');
    }
    c.set('payment', body);
    await next();
  };
}

export function checkoutRoutes(deps: RouteDeps): Hono<HandlerEnv> {
  const { config, client, outcomes, baskets } = deps;
  const { log } = config;
  const fromPage = requireAllowedOrigin(config.allowedOrigins);
  // Only a new checkout counts as created, checked as the basket is about to make one (before
  // the provider's create): a reload or a second tab that finds the basket's checkout counts
  // nothing, so reloading a page never locks its developer out, while a card tester making
  // checkouts is held.
  const creating = (c: Context<HandlerEnv>) => () => deps.limits.check(c, 'checkoutsPerClient');
  const paying = rateLimit({
    limiter: deps.limits,
    perClient: 'paymentsPerClient',
    perCheckout: true,
  });
  const answerOf = checkoutAnswers(deps.steps);
  const reader = (c: Context<HandlerEnv>, id: string) => () =>
    client.checkouts.get(id, callContext(c));
  /** A basket's checkout: 201 when this request made it (no step yet), 200 when it was there. */
  const answer = async (c: Context<HandlerEnv>, { checkout, created }: BasketCheckout) =>
    created
      ? json(toPublicCheckout(checkout), 201)
      : json(await answerOf(checkout, checkout.id, reader(c, checkout.id)), 200);
  const app = new Hono<HandlerEnv>();

  app.post('/', fromPage, ...jsonBody(deps), orderBody, async (c) => {
    const resolved = await config.resolveCheckout(c.get('order'), c.req.raw);
    const found = await baskets.checkoutFor(resolved, callContext(c), creating(c));
    c.set('checkoutId', found.checkout.id);
    return answer(c, found);
  });

  // After a failure, the basket's next checkout on the failed one's terms: nothing in the
  // request decides them. Counted as a creation when it makes one: a bot retrying cards is
  // held the same.
  app.post('/:id/retry', fromPage, checkoutIdParam, async (c) => {
    const authorize = config.authorizeBasket;
    const owner = async (basket: string) => {
      if (authorize === undefined || (await authorize(c.req.raw, basket)) === true) return;
      throw new PaymentHandlerError(403, 'FORBIDDEN', "This checkout's basket is not yours", 'id');
    };
    return answer(c, await baskets.retry(c.get('checkoutId'), callContext(c), creating(c), owner));
  });

  app.get('/:id', checkoutIdParam, async (c) => {
    const id = c.get('checkoutId');
    const read = reader(c, id);
    const checkout = await read();
    // The widget polls here: a final status seen here counts as a confirmation.
    await outcomes.inBackground(checkout, c.env.waitUntil);
    // With a pending checkout's open step, for a widget loaded again mid-step (answer.ts).
    return json(await answerOf(checkout, id, read));
  });

  // The limits are the last check before the provider: a refused attempt is not a payment to watch.
  app.put(
    '/:id',
    fromPage,
    ...jsonBody(deps),
    checkoutIdParam,
    paymentBody(config),
    paying,
    async (c) => {
      const id = c.get('checkoutId');
      const body = c.get('payment');
      // Watched from now on: if every answer about this payment is lost, reconcile() asks.
      await deps.watchlist.watch(id, true);
      // Until its answer: a widget loaded meanwhile waits for it (open-steps.ts).
      const marked = await deps.steps.paying(id);
      let result: ProcessResult;
      try {
        result = await client.checkouts.process(id, body, callContext(c));
      } catch (error) {
        // Refused: another payment's mark (a second tab's Pay) stays for its own answer.
        if (marked) await deps.steps.close(id);
        // No such checkout: nothing to watch (and no set for anyone to fill with made-up ids).
        if (error instanceof ProviderError && error.status === 404) void deps.watchlist.unwatch(id);
        throw error;
      }
      if (result.kind === 'next_step') {
        const unsafe = unsafeNextStepField(result.next_step);
        if (unsafe !== undefined) {
          // Not followed, so not kept: the payment is no longer on its way either.
          if (marked) await deps.steps.close(id);
          log({ level: 'error', message: UNSAFE, checkoutId: id, field: unsafe });
          return errorJson(
            502,
            'UNSAFE_NEXT_STEP',
            'The payment provider sent an unsafe redirect',
            unsafe,
          );
        }
        log({ level: 'info', message: 'checkout needs user action', checkoutId: id });
        await deps.steps.keep(id, { payment_type: body.payment_type, next_step: result.next_step });
        return json({ next_step: result.next_step }, 202);
      }
      // This attempt opened no step: one an earlier attempt opened is abandoned.
      await deps.steps.close(id);
      if (unsafeBoleto(result.checkout)) {
        log({ level: 'error', message: UNSAFE, checkoutId: id, field: 'boleto.url' });
      }
      await outcomes.inBackground(result.checkout, c.env.waitUntil);
      log({
        level: 'info',
        message: result.recovered
          ? 'checkout processed (read back after a lost answer)'
          : 'checkout processed',
        checkoutId: id,
        checkoutStatus: result.checkout.status ?? undefined,
      });
      return json(toPublicCheckout(result.checkout));
    },
  );

  return app;
}
