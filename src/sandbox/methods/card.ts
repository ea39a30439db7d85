// Paying by card: with the card as typed (the card table, or the outcome control, decides:
// paid, declined, a technical error, or a 3-D Secure challenge answered 202 with the
// challenge's page, ../pages/routes.ts), or with a saved card's token (no challenge). Only
// the last four digits and the network are ever kept.
import { json } from '../../http/json.ts';
import type { CheckoutProcessBody } from '../../schemas/index.ts';
import type { SandboxContext } from '../context.ts';
import { invalid, missing } from '../errors.ts';
import { cardOutcome, detectNetwork, expiryInFuture, luhnValid } from '../simulation/cards.ts';
import { takeOutcome } from '../simulation/outcomes.ts';
import { authorizeCard, newToken } from '../simulation/payments.ts';
import type { CheckoutRecord, Frozen, KeptCard } from '../state/records.ts';
import type { SandboxMethod } from './types.ts';

export const card: SandboxMethod = {
  name: 'Card',
  currencies: 'any',
  process(ctx, checkout, body, origin) {
    return body.token !== undefined
      ? payWithToken(ctx, checkout, body, body.token)
      : payWithCard(ctx, checkout, body, origin);
  },
};

/** Where the challenge's page posts its answer (the provider's TermUrl). */
export const termUrl = (origin: string, id: string) =>
  `${origin}/v0.1/checkouts/${encodeURIComponent(id)}/complete_payment`;

function payWithToken(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  body: CheckoutProcessBody,
  token: string,
): undefined {
  // The schema guarantees customer_id whenever a token is given.
  const customerId = body.customer_id!;
  if (checkout.customer_id !== undefined && checkout.customer_id !== customerId) {
    throw invalid('customer_id', "customer_id must be the checkout's customer");
  }
  const instrument = ctx.store.get('instruments', token);
  if (!instrument || instrument.customer_id !== customerId || !instrument.active) {
    throw invalid('token', 'token must be an active payment instrument of this customer');
  }
  authorizeCard(ctx, checkout, {
    card: { ...instrument.card },
    installments: body.installments ?? 1,
    saveCard: false,
    token,
    authenticated: true,
    // A saved card needs no challenge: any open one is abandoned.
    pending: 'replace',
  });
  return undefined;
}

/** The control's outcome as the card table names it. */
const OVERRIDDEN = {
  declined: 'paid',
  paid: 'paid',
  challenge: 'challenge',
  technical_error: 'technical-error',
} as const;

function payWithCard(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  body: CheckoutProcessBody,
  origin: string,
): Response | undefined {
  const card = body.card;
  if (!card) throw missing('card', 'card is required when payment_type is card');
  if (!luhnValid(card.number)) throw invalid('card.number', 'card.number fails the Luhn check');
  if (!expiryInFuture(card.expiry_month, card.expiry_year, new Date(ctx.clock.now()))) {
    throw invalid('card.expiry_year', 'card.expiry_year and card.expiry_month are in the past');
  }
  if (ctx.config.country === 'US' && card.zip_code === undefined) {
    throw missing('card.zip_code', 'card.zip_code is required for merchants in the USA');
  }
  if (ctx.config.country !== 'US' && card.zip_code !== undefined) {
    throw invalid('card.zip_code', 'card.zip_code applies only to merchants in the USA');
  }
  const saveCard = body.mandate !== undefined;
  if (saveCard || checkout.purpose === 'SETUP_RECURRING_PAYMENT') {
    if (!saveCard) throw missing('mandate', 'mandate is required to set up recurring payments');
    if (checkout.customer_id === undefined) {
      throw missing('customer_id', 'the checkout needs a customer_id to save a card');
    }
    if (!ctx.store.has('customers', checkout.customer_id)) {
      throw invalid('customer_id', "the checkout's customer_id names no customer");
    }
  }
  const detected = detectNetwork(card.number);
  // Only the last four digits and the network are kept: never the number or the CVV.
  const summary: KeptCard = {
    last_4_digits: card.number.slice(-4),
    type: detected === 'UNKNOWN' ? card.type : detected,
  };
  const installments = body.installments ?? 1;
  // The outcome control first (POST /sandbox/outcomes), else the card table.
  const chosen = takeOutcome(ctx.store, card.number, checkout);
  const outcome = chosen === undefined ? cardOutcome(card.number) : OVERRIDDEN[chosen];
  if (outcome !== 'challenge') {
    authorizeCard(ctx, checkout, {
      card: summary,
      installments,
      saveCard,
      authenticated: true,
      verdict:
        outcome === 'technical-error'
          ? 'technical_error'
          : chosen === 'declined'
            ? 'decline'
            : chosen === 'paid'
              ? 'approve'
              : undefined,
      // This attempt replaces any open challenge or bank page.
      pending: 'replace',
    });
    return undefined;
  }
  const md = newToken();
  // Only ASCII (a uuid and a hex token), so btoa takes it as it is.
  const paReq = btoa(JSON.stringify({ checkout: checkout.id, md }));
  ctx.store.update('checkouts', checkout.id, (c) => {
    c.pending = {
      kind: 'challenge',
      md,
      paReq,
      attempt: { card: summary, installments, saveCard },
      settled: false,
    };
  });
  const nextStep: Record<string, unknown> = {
    url: `${origin}/sandbox/3ds/${encodeURIComponent(checkout.id)}`,
    method: 'POST',
    mechanism: ['iframe', 'browser'],
    payload: {
      PaReq: paReq,
      MD: md,
      TermUrl: termUrl(origin, checkout.id),
    },
  };
  if (checkout.redirect_url !== undefined) nextStep.redirect_url = checkout.redirect_url;
  return json({ next_step: nextStep }, 202);
}
