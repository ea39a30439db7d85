// Request bodies of the checkout endpoints: create and process, with the URL,
// timestamp and IP validators they need; what the provider answers is checkout.ts.
import * as z from 'zod/mini';
import { CheckoutPurposeSchema } from './checkout.ts';
import { CurrencyCodeSchema, must, PersonalDetailsSchema } from './common.ts';
import { amountCeiling, inMinorUnits, minorUnit } from './currencies.ts';
import { installmentsSchema } from './installments.ts';
import { CardDetailsSchema, MandateBodySchema } from './methods/card.ts';
import { PaymentTypeSchema } from './methods/index.ts';

const httpUrl = z.url({ protocol: /^https?$/, error: must('must be an http or https URL') });

const isoTimestamp = z.iso.datetime({ offset: true, error: must('must be an ISO 8601 timestamp') });

export const CheckoutCreateBodySchema = z
  .object({
    checkout_reference: z
      .string({ error: must('must be a string') })
      .check(
        z.minLength(1, { error: 'must not be empty' }),
        z.maxLength(90, { error: 'must be at most 90 characters' }),
      ),
    amount: z
      .number({
        // NaN and Infinity are numbers to JavaScript (a price read from an empty field): say which.
        error: (issue) =>
          typeof issue.input === 'number'
            ? `must be a finite number (not ${issue.input})`
            : must('must be a number')(issue),
      })
      .check(z.nonnegative({ error: 'must not be negative' })),
    currency: CurrencyCodeSchema,
    merchant_code: z
      .string({ error: must('must be a string') })
      .check(z.minLength(1, { error: 'must not be empty' })),
    pay_to_email: z.optional(z.email({ error: must('must be an email address') })),
    description: z.optional(z.string({ error: must('must be a string') })),
    return_url: z.optional(httpUrl),
    redirect_url: z.optional(httpUrl),
    customer_id: z.optional(z.string({ error: must('must be a string') })),
    purpose: z.optional(CheckoutPurposeSchema),
    valid_until: z.optional(z.nullable(isoTimestamp)),
    // Read-only fields the provider's schema tolerates in a create body; kept
    // lenient so a client that echoes a checkout back is not refused.
    id: z.optional(z.string()),
    status: z.optional(z.string()),
    date: z.optional(z.string()),
    transactions: z.optional(z.array(z.unknown())),
  })
  .check(
    z.refine((body) => body.amount > 0 || body.purpose === 'SETUP_RECURRING_PAYMENT', {
      error:
        'must be greater than 0 (0 only with purpose SETUP_RECURRING_PAYMENT, which saves a card)',
      path: ['amount'],
    }),
    // 0.1 * 3 is 0.30000000000000004: a price times a quantity is rounded to the cent first.
    z.refine((body) => inMinorUnits(body.amount, body.currency), {
      error: (issue) => {
        const { amount, currency } = issue.input as { amount: number; currency: string };
        const places = minorUnit(currency);
        const rule = places === 0 ? 'be a whole number' : `have at most ${places} decimal places`;
        return `must ${rule} in ${currency} (not ${amount})`;
      },
      path: ['amount'],
    }),
    z.refine((body) => body.amount < amountCeiling(body.currency), {
      error: (issue) => {
        const { amount, currency } = issue.input as { amount: number; currency: string };
        return `must be less than ${amountCeiling(currency)} in ${currency} (not ${amount})`;
      },
      path: ['amount'],
    }),
  );
export type CheckoutCreateBody = z.infer<typeof CheckoutCreateBodySchema>;

export const CheckoutProcessBodySchema = z
  .object({
    payment_type: PaymentTypeSchema,
    installments: installmentsSchema,
    mandate: z.optional(MandateBodySchema),
    card: z.optional(CardDetailsSchema),
    token: z.optional(
      z
        .string({ error: must('must be a string') })
        .check(z.minLength(1, { error: 'must not be empty' })),
    ),
    customer_id: z.optional(
      z
        .string({ error: must('must be a string') })
        .check(z.minLength(1, { error: 'must not be empty' })),
    ),
    personal_details: z.optional(PersonalDetailsSchema),
  })
  .check(
    // A card payment names either the card or a saved card's token.
    z.refine(
      (body) => body.payment_type !== 'card' || body.card !== undefined || body.token !== undefined,
      {
        error: 'is required when payment_type is card',
        path: ['card'],
        params: { missing: true },
      },
    ),
    z.refine((body) => body.token === undefined || body.customer_id !== undefined, {
      error: 'is required when token is given',
      path: ['customer_id'],
      params: { missing: true },
    }),
  );
export type CheckoutProcessBody = z.infer<typeof CheckoutProcessBodySchema>;
