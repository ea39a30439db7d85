// A boleto's own part of a checkout: the voucher the provider issues when it is paid by
// boleto (its printed line and where to open it). The payer's tax id and address travel in
// the process body's `personal_details` (../common.ts).
import * as z from 'zod/mini';
import { maybe } from '../common.ts';

export const BoletoSchema = z.object({
  barcode: maybe(z.string()),
  url: maybe(z.string()),
});
export type Boleto = z.infer<typeof BoletoSchema>;
