// ISO 4217 minor units (decimal places): every active code whose minor unit is not 2, and the
// rule the handler and the sandbox apply to a checkout's amount with them. Any other code uses
// 2, the common case (the precious metals and drawing rights, which have none, are no money a
// checkout charges). One exception to ISO: the provider takes COP and HUF, like CLP, in whole
// units (its reader API's minor_unit is 0 for all three), so the table does too.
// Amounts are written (../shared/money.ts: the widget, the sandbox's pages, the demo) with the
// codes of WRITTEN alone for now: the widget's bundle has no room for the others' bytes yet, and
// a page beside the widget must write an amount as the widget does. The engines' own currency
// data disagree with the table (IDR, IQD, HUF, ...).

/** The codes the widget's bundle carries, with which every amount is written. */
const WRITTEN: Record<string, number> = {
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

const MINOR_UNITS: Record<string, number> = /* @__PURE__ */ Object.assign({}, WRITTEN, {
  BIF: 0,
  CLF: 4,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  KMF: 0,
  LYD: 3,
  RWF: 0,
  UYI: 0,
  UYW: 4,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
});

/** The currency's minor unit, as the handler and the sandbox check an amount by it. */
export function minorUnit(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/** The minor unit an amount is written with (../shared/money.ts): WRITTEN's, for now. */
export function writtenMinorUnit(currency: string): number {
  return WRITTEN[currency] ?? 2;
}

/** The most decimal places any currency has: an amount with more is no currency's amount. */
export function mostDecimals(): number {
  return Math.max(...Object.values(MINOR_UNITS));
}

/** An amount rounded to the currency's minor unit (payout fees, open chargeback amounts). */
export function roundToMinorUnit(amount: number, currency: string): number {
  const factor = 10 ** minorUnit(currency);
  return Math.round(amount * factor) / factor;
}

/**
 * How many decimal places `amount` has as JavaScript and JSON write it (its shortest form):
 * 59.97 has 2, `0.1 + 0.2` (0.30000000000000004) has 17, 1e-7 has 7, 1e21 has none.
 */
export function decimalPlaces(amount: number): number {
  const [digits = '', exponent = '0'] = String(amount).split('e');
  const fraction = digits.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * Whether `amount` is a whole number of the currency's minor units: 59.97 EUR is, 10.005 EUR
 * and 1000.5 HUF are not, nor a price times a quantity that floating point left off the cent
 * (`0.1 * 3`), whose charge would not be what the page shows.
 */
export function inMinorUnits(amount: number, currency: string): boolean {
  return decimalPlaces(amount) <= minorUnit(currency);
}

/**
 * Whether `a` and `b` are the same amount of the currency, to its minor unit, and one it can
 * charge: 5.125 and 5.125 KWD are, 5.125 and 5.13 KWD are not (nor were they compared in cents),
 * and 42.01 is no amount of yen at all, so no yen amount is it.
 */
export function sameAmount(a: number, b: number, currency: string): boolean {
  if (!inMinorUnits(a, currency) || !inMinorUnits(b, currency)) return false;
  const factor = 10 ** minorUnit(currency);
  return Math.round(a * factor) === Math.round(b * factor);
}

/**
 * The first amount too large to charge: 10^15 minor units (10000000000000 EUR). A number, and
 * the JSON the provider reads, holds a decimal of at most 15 digits exactly; one of 16 may come
 * out as another (90071992547409.93 is written 90071992547409.94), a charge nobody priced.
 */
export function amountCeiling(currency: string): number {
  return 10 ** (15 - minorUnit(currency));
}
