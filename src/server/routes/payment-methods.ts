/**
 * `GET /payment-methods` (`?amount=&currency=&purpose=`) and
 * `GET /customers/:customerId/payment-instruments`: what the widget may offer.
 */
import { Hono } from 'hono';
import { json } from '../../http/json.ts';
import { amountCeiling, decimalPlaces, minorUnit, mostDecimals } from '../../schemas/currencies.ts';
import { CheckoutPurposeSchema } from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import { requireCustomer } from '../guards/ids.ts';
import type { HandlerEnv } from '../types.ts';
import { callContext, type RouteDeps } from './context.ts';

export function paymentMethodRoutes(deps: RouteDeps): Hono<HandlerEnv> {
  const { client, config } = deps;
  const app = new Hono<HandlerEnv>();

  app.get('/payment-methods', async (c) => {
    const filter: { amount?: number; currency?: string } = {};
    const currency = c.req.query('currency');
    if (currency !== undefined && currency !== '') {
      if (!/^[A-Z]{3}$/.test(currency)) {
        throw new PaymentHandlerError(
          400,
          'INVALID',
          'currency must be a three-letter ISO 4217 code',
          'currency',
        );
      }
      filter.currency = currency;
    }
    const amount = c.req.query('amount');
    if (amount !== undefined && amount !== '') {
      // Any amount a checkout may have, as the widget sends its checkout's: 0 (a card saved) or
      // more, to the currency's minor unit, under its ceiling (without a currency, the widest).
      const places = filter.currency ? minorUnit(filter.currency) : mostDecimals();
      const ceiling = filter.currency ? amountCeiling(filter.currency) : 10 ** 15;
      const value = Number(amount);
      if (!/^\d+(\.\d+)?$/.test(amount) || decimalPlaces(value) > places || value >= ceiling) {
        throw new PaymentHandlerError(
          400,
          'INVALID',
          `amount must be ${places === 0 ? 'a whole number' : `a number to at most ${places} decimal places`}, from 0 to under ${ceiling}`,
          'amount',
        );
      }
      filter.amount = value;
    }
    // A checkout made to save a card is paid by card alone: a bank's method or a boleto would
    // pay it without saving anything.
    const purpose = c.req.query('purpose');
    if (
      purpose !== undefined &&
      purpose !== '' &&
      !CheckoutPurposeSchema.safeParse(purpose).success
    ) {
      throw new PaymentHandlerError(
        400,
        'INVALID',
        'purpose must be CHECKOUT or SETUP_RECURRING_PAYMENT',
        'purpose',
      );
    }
    const { merchantCode } = config.provider;
    const methods = await client.checkouts.paymentMethods(merchantCode, filter, callContext(c));
    if (purpose !== 'SETUP_RECURRING_PAYMENT') return json(methods);
    return json({
      ...methods,
      available_payment_methods: methods.available_payment_methods.filter((m) => m.id === 'card'),
    });
  });

  app.get('/customers/:customerId/payment-instruments', async (c) => {
    const customerId = c.req.param('customerId');
    await requireCustomer(config.authorizeCustomer, c.req.raw, customerId, 'customerId');
    const instruments = await client.customers.listPaymentInstruments(customerId, callContext(c));
    // A deactivated card cannot pay: offering it would only produce a decline.
    return json(instruments.filter((instrument) => instrument.active !== false));
  });

  return app;
}
