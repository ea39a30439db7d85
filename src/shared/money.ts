// How an amount reads to a person: the widget's Pay button and outcome, the sandbox's bank and
// challenge pages, its dashboard, the demo's shop page. One rule for them all: the locale's way
// of writing money, with the decimals of the currency's minor unit from the table the handler
// charges by (../schemas/currencies.ts: its written codes, the widget's, for now). The engines'
// own currency data differ from it and from each other: Firefox and WebKit gave HUF and COP two
// decimals, Chromium and Node gave IDR and IQD none (IDR 15000.5 read "IDR 15,001", an amount
// other than the one charged).
import { writtenMinorUnit } from '../schemas/currencies.ts';

/** An amount in the locale's way of writing money; '' when there is no amount. */
export function formatMoney(locale: string, amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number') return '';
  const options: Intl.NumberFormatOptions =
    typeof currency === 'string' && currency
      ? {
          style: 'currency',
          currency,
          minimumFractionDigits: writtenMinorUnit(currency),
          maximumFractionDigits: writtenMinorUnit(currency),
        }
      : {};
  try {
    return amount.toLocaleString(locale, options);
  } catch {
    // A malformed locale or currency must not break the form.
    return amount.toLocaleString('en-GB', options);
  }
}
