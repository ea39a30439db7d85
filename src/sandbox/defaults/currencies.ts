// How the provider's receipts print an amount; the currencies' minor units are the schemas'
// (a checkout's amount is checked with them).
import { minorUnit } from '../../schemas/currencies.ts';

/**
 * An amount as the provider's receipts print it: the currency's decimals, no symbol. What a
 * shopper's page shows is `displayAmount` (pages/html.ts), with the currency's symbol.
 */
export function formatAmount(amount: number, currency: string): string {
  return amount.toFixed(minorUnit(currency));
}
