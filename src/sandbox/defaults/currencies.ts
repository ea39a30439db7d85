// ISO 4217 minor units (decimal places) of the currencies a sandbox user is likely to try.
// The seed names CLP, COP and HUF as 0 (the provider treats HUF as whole forints); a currency
// missing here is assumed to use 2, the common case.

const MINOR_UNITS: Record<string, number> = {
  BHD: 3,
  CLP: 0,
  COP: 0,
  HUF: 0,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KRW: 0,
  KWD: 3,
  OMR: 3,
  PYG: 0,
  TND: 3,
  UGX: 0,
  VND: 0,
};

export function minorUnit(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/** An amount rounded to the currency's minor unit (payout fees, open chargeback amounts). */
export function roundToMinorUnit(amount: number, currency: string): number {
  const factor = 10 ** minorUnit(currency);
  return Math.round(amount * factor) / factor;
}

/**
 * An amount as the provider's receipts print it: the currency's decimals, no symbol. What a
 * shopper's page shows is `displayAmount` (pages/html.ts), with the currency's symbol.
 */
export function formatAmount(amount: number, currency: string): string {
  return amount.toFixed(minorUnit(currency));
}
