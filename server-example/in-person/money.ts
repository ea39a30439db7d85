/**
 * Amounts as the till types them ("12.50") and as the reader API takes them (1250 in
 * minor units), per currency.
 */
import { minorUnit } from '../../src/schemas/currencies.ts';

/**
 * The currency's minor unit, from the table the handler and the sandbox check amounts by (the
 * reader API's minor_unit must be its): Intl's own data disagree with it (HUF, IDR, IQD).
 */
export const minorUnitOf = minorUnit;

/** "12.50" -> 1250 (minor unit 2); undefined when it is not a positive amount in that unit. */
export function toMinorUnits(text: string, minorUnit: number): number | undefined {
  const decimals = minorUnit === 0 ? '' : `([.,]\\d{1,${minorUnit}})?`;
  if (!new RegExp(`^\\d{1,9}${decimals}$`).test(text.trim())) return undefined;
  const [whole = '0', fraction = ''] = text.trim().replace(',', '.').split('.');
  const value = Number(whole) * 10 ** minorUnit + Number(fraction.padEnd(minorUnit, '0') || 0);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

/** An example amount for an error message: "12.50", "1250", "12.500". */
export function exampleAmount(minorUnit: number): string {
  return minorUnit === 0 ? '1250' : `12.${'5'.padEnd(minorUnit, '0')}`;
}
