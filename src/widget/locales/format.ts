import { minorUnit } from '../../schemas/currencies.ts';

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

/**
 * An amount in the locale's way of writing money, with the currency's minor unit as the
 * handler charges it (../../schemas/currencies.ts): engines disagree on some (Firefox and
 * WebKit write HUF and COP with two decimals, Chromium IDR with none); '' when there is no
 * amount.
 */
export function formatMoney(locale: string, amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number') return '';
  const options: Intl.NumberFormatOptions =
    typeof currency === 'string' && currency
      ? {
          style: 'currency',
          currency,
          minimumFractionDigits: minorUnit(currency),
          maximumFractionDigits: minorUnit(currency),
        }
      : {};
  try {
    return amount.toLocaleString(locale, options);
  } catch {
    // A malformed locale or currency must not break the form.
    return amount.toLocaleString('en-GB', options);
  }
}
