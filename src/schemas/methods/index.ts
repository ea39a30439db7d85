// The payment methods the provider takes (a process body's `payment_type`), as this package
// knows them: the handler accepts these, the sandbox simulates each (src/sandbox/methods/),
// and the widget draws the same list (src/widget/methods/index.ts), which
// test/node/layout/methods.test.ts holds them to. Each method's own schemas are beside this
// file.
import * as z from 'zod/mini';
import { must } from '../common.ts';

export const PAYMENT_METHOD_IDS = ['card', 'ideal', 'bancontact', 'blik', 'boleto'] as const;
export type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number];

export const PaymentTypeSchema = z.enum(PAYMENT_METHOD_IDS, {
  error: must(`must be one of ${PAYMENT_METHOD_IDS.join(', ')}`),
});
export type PaymentType = z.infer<typeof PaymentTypeSchema>;

export * from './boleto.ts';
export * from './card.ts';
