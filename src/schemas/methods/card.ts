// A card payment's own parts of the process body: the card as typed (never stored by the
// handler or the sandbox beyond its last four digits and network) and the mandate that
// saves it for later payments.
import * as z from 'zod/mini';
import { CardNetworkSchema, must, type Named } from '../common.ts';

const cardDetailsObject = z
  .object({
    name: z
      .string({ error: must('must be a string') })
      .check(z.trim(), z.minLength(1, { error: 'must not be empty' })),
    number: z
      .string({ error: must('must be a string of digits') })
      .check(z.regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits without spaces' })),
    expiry_month: z
      .string({ error: must('must be a string') })
      .check(z.regex(/^(0[1-9]|1[0-2])$/, { error: 'must be 01 to 12' })),
    expiry_year: z
      .string({ error: must('must be a string') })
      .check(z.regex(/^(\d{2}|\d{4})$/, { error: 'must be YY or YYYY' })),
    cvv: z
      .string({ error: must('must be a string') })
      .check(z.regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' })),
    last_4_digits: z
      .string({ error: must('must be a string') })
      .check(z.regex(/^\d{4}$/, { error: 'must be 4 digits' })),
    type: CardNetworkSchema,
    zip_code: z.optional(
      z
        .string({ error: must('must be a string') })
        .check(z.regex(/^\d{5}$/, { error: 'must be 5 digits' })),
    ),
  })
  .check(
    z.refine((card) => card.number.endsWith(card.last_4_digits), {
      error: 'must be the last four digits of card.number',
      path: ['last_4_digits'],
    }),
  );
export interface CardDetailsSchema extends Named<typeof cardDetailsObject> {}
export const CardDetailsSchema: CardDetailsSchema = cardDetailsObject;
export type CardDetails = z.infer<typeof CardDetailsSchema>;

const mandateBodyObject = z.object({
  type: z.enum(['recurrent'], { error: must('must be "recurrent"') }),
  user_agent: z
    .string({ error: must('must be a string') })
    .check(z.minLength(1, { error: 'must not be empty' })),
  user_ip: z.optional(
    z.union([z.ipv4(), z.ipv6()], { error: must('must be an IPv4 or IPv6 address') }),
  ),
});
export interface MandateBodySchema extends Named<typeof mandateBodyObject> {}
export const MandateBodySchema: MandateBodySchema = mandateBodyObject;
export type MandateBody = z.infer<typeof MandateBodySchema>;
