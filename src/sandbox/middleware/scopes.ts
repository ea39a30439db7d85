// Access rules shared by the route modules, named after the seed's scopes.
import type { Access } from './route.ts';

export const PAYMENTS: Access = { scopes: ['payments'] };
export const PAYMENT_INSTRUMENTS: Access = { scopes: ['payment_instruments'] };
export const TRANSACTIONS_HISTORY: Access = { scopes: ['transactions.history'] };
/** The sandbox's control surface: any valid test key, whatever its scopes. */
export const CONTROL: Access = 'key';
/** Pages a shopper's browser opens (challenge, bank, voucher, TermUrl): no key. */
export const PUBLIC: Access = 'public';
