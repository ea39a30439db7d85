// Boleto, a Brazilian voucher paid later at a bank or online, as the form draws it: who pays,
// with the payer's tax id (CPF or CNPJ) and address, which the voucher carries.
import type { MethodForm } from '../types.ts';

export const boleto: MethodForm = {
  fields: () => ['firstName', 'lastName', 'email', 'taxId', 'line1', 'city', 'state', 'postalCode'],
};
