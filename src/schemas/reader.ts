// Card readers (preview feature): pairing, and in-person checkouts with their
// limits. Server-side only.
import * as z from 'zod/mini';
import { CurrencyCodeSchema, maybe, must, type Named, requiredString } from './common.ts';
import { minorUnit } from './currencies.ts';
import { installmentsSchema } from './installments.ts';

export const ReaderStatusSchema = z.enum(['unknown', 'processing', 'paired', 'expired']);
export type ReaderStatus = z.infer<typeof ReaderStatusSchema>;

export const ReaderModelSchema = z.enum(['solo', 'virtual-solo']);
export type ReaderModel = z.infer<typeof ReaderModelSchema>;

const readerObject = z.object({
  id: z.string(),
  name: maybe(z.string()),
  status: ReaderStatusSchema,
  device: z.object({
    identifier: z.string(),
    model: ReaderModelSchema,
  }),
  meta: maybe(z.record(z.string(), z.unknown())),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
export interface ReaderSchema extends Named<typeof readerObject> {}
export const ReaderSchema: ReaderSchema = readerObject;
export type Reader = z.infer<typeof ReaderSchema>;

export const ReaderListSchema = z.object({ items: z.array(ReaderSchema) });
export type ReaderList = z.infer<typeof ReaderListSchema>;

const readerName = z
  .string({ error: must('must be a string') })
  .check(z.maxLength(500, { error: 'must be at most 500 characters' }));

// The provider's limits on user metadata: at most 50 keys, strings up to 256 characters.
const readerMeta = z
  .record(
    z.string(),
    z.unknown().check(
      z.refine((value) => typeof value !== 'string' || value.length <= 256, {
        error: 'must be at most 256 characters',
      }),
    ),
    { error: must('must be an object') },
  )
  .check(
    z.refine((meta) => Object.keys(meta).length <= 50, { error: 'must have at most 50 keys' }),
  );

export const ReaderCreateBodySchema = z.object({
  pairing_code: z
    .string({ error: must('must be a string') })
    .check(z.regex(/^[A-Za-z0-9]{8,9}$/, { error: 'must be 8 or 9 letters or digits' })),
  name: z.optional(readerName),
  meta: z.optional(readerMeta),
});
export type ReaderCreateBody = z.infer<typeof ReaderCreateBodySchema>;

export const ReaderUpdateBodySchema = z.object({
  name: z.optional(readerName),
  meta: z.optional(readerMeta),
});
export type ReaderUpdateBody = z.infer<typeof ReaderUpdateBodySchema>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The result webhook must be HTTPS; plain HTTP only to a loopback host (the sandbox and tests). */
function isWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  );
}

export const ReaderCheckoutBodySchema = z.object({
  description: z.optional(z.string({ error: must('must be a string') })),
  card_type: z.optional(z.enum(['credit', 'debit'], { error: must('must be credit or debit') })),
  installments: installmentsSchema,
  return_url: z.optional(
    z.string({ error: must('must be a string') }).check(
      z.refine(isWebhookUrl, {
        error: 'must be an https URL (http only on 127.0.0.1 or localhost)',
      }),
    ),
  ),
  total_amount: z
    .object(
      {
        value: z
          .int({ error: must('must be a whole number of minor units') })
          .check(z.positive({ error: 'must be greater than 0' })),
        currency: CurrencyCodeSchema,
        minor_unit: z
          .int({ error: must('must be a whole number') })
          .check(
            z.minimum(0, { error: 'must be 0 to 4' }),
            z.maximum(4, { error: 'must be 0 to 4' }),
          ),
      },
      { error: must('must be an object') },
    )
    .check(
      // The currency's own, from the table the online checkouts are held to: 0 for CLP, COP
      // and HUF (as the seed says), XOF and JPY, 3 for KWD and IQD, 2 for EUR.
      z.refine((amount) => amount.minor_unit === minorUnit(amount.currency), {
        error: (issue) => {
          const { currency } = issue.input as { currency: string };
          return `must be ${minorUnit(currency)} for ${currency}`;
        },
        path: ['minor_unit'],
      }),
    ),
  tip_rates: z.optional(
    z
      .array(
        z
          .number({ error: must('must be a number') })
          .check(
            z.minimum(0.01, { error: 'must be between 0.01 and 0.99' }),
            z.maximum(0.99, { error: 'must be between 0.01 and 0.99' }),
          ),
        { error: must('must be an array of numbers') },
      )
      .check(
        z.refine((rates) => rates.every((rate, i) => i === 0 || rate > (rates[i - 1] ?? 0)), {
          error: 'must be in ascending order',
        }),
      ),
  ),
  affiliate: z.optional(
    z.object(
      {
        app_id: requiredString,
        key: requiredString,
        foreign_transaction_id: requiredString,
        tags: z.optional(z.record(z.string(), z.unknown(), { error: must('must be an object') })),
      },
      { error: must('must be an object') },
    ),
  ),
});
export type ReaderCheckoutBody = z.infer<typeof ReaderCheckoutBodySchema>;

export const ReaderCheckoutResponseSchema = z.object({
  data: z.object({ client_transaction_id: z.string() }),
});
export type ReaderCheckoutResponse = z.infer<typeof ReaderCheckoutResponseSchema>;

/** What the provider POSTs to a reader checkout's return_url. */
export const ReaderCheckoutStatusChangeSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  payload: z.object({
    client_transaction_id: z.string(),
    merchant_code: z.string(),
    status: z.enum(['successful', 'failed']),
    transaction_id: maybe(z.string()),
  }),
  timestamp: z.string(),
});
export type ReaderCheckoutStatusChange = z.infer<typeof ReaderCheckoutStatusChangeSchema>;
