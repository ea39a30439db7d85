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

/** An amount as the receipts show it: a string with the currency's decimals. */
export function formatAmount(amount: number, currency: string): string {
  return amount.toFixed(minorUnit(currency));
}
