/**
 * The demo's "try an outcome" switches, read from the page URL by the SERVER
 * (`/?amount=11.00&currency=PLN&redirect=0&expires_in=5&account=1&locale=de-DE`).
 *
 * A real shop has none of this: its page route looks the price up in its
 * catalogue. They exist because the sandbox decides outcomes by amount (11.00
 * declines) and methods by currency (BLIK needs PLN, boleto BRL). Even here the
 * browser never sends an amount to the payment routes: the page route creates
 * the checkout on the server and the page only receives its id.
 */
import { DEFAULT_PRODUCT } from './catalogue.ts';

export interface DemoKnobs {
  amount: number;
  currency: string;
  /** Give the checkout a redirect_url: 3DS as a full page, APMs possible. */
  redirect: boolean;
  /** Seconds until the checkout's valid_until; undefined: the shop's default. */
  expiresIn: number | undefined;
  /** Pay as the signed-in demo shopper: saved cards and "save this card". */
  account: boolean;
  /** The widget's language (`de-DE`); undefined: the page's, English. */
  locale: string | undefined;
}

export type KnobsResult =
  | { ok: true; knobs: DemoKnobs }
  | { ok: false; field: string; message: string };

/** Currencies the sandbox merchant settles; each unlocks its local method. */
export const DEMO_CURRENCIES = ['EUR', 'PLN', 'BRL'] as const;

export function readKnobs(query: URLSearchParams): KnobsResult {
  let amount = DEFAULT_PRODUCT.amount;
  const rawAmount = query.get('amount');
  if (rawAmount !== null && rawAmount !== '') {
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(rawAmount) || Number(rawAmount) <= 0) {
      return { ok: false, field: 'amount', message: 'amount must look like 11.00 (more than 0)' };
    }
    amount = Number(rawAmount);
  }
  let currency = DEFAULT_PRODUCT.currency;
  const rawCurrency = query.get('currency');
  if (rawCurrency !== null && rawCurrency !== '') {
    const upper = rawCurrency.toUpperCase();
    if (!(DEMO_CURRENCIES as readonly string[]).includes(upper)) {
      return {
        ok: false,
        field: 'currency',
        message: `currency must be one of ${DEMO_CURRENCIES.join(', ')}`,
      };
    }
    currency = upper;
  }
  let expiresIn: number | undefined;
  const rawExpires = query.get('expires_in');
  if (rawExpires !== null && rawExpires !== '') {
    if (!/^\d{1,5}$/.test(rawExpires) || Number(rawExpires) < 1 || Number(rawExpires) > 86_400) {
      return { ok: false, field: 'expires_in', message: 'expires_in must be 1 to 86400 seconds' };
    }
    expiresIn = Number(rawExpires);
  }
  const rawLocale = query.get('locale');
  let locale: string | undefined;
  if (rawLocale !== null && rawLocale !== '') {
    // A BCP 47 shape only: the value lands in an attribute and picks a file to load.
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}$/i.test(rawLocale)) {
      return { ok: false, field: 'locale', message: 'locale must be a language tag like de-DE' };
    }
    locale = rawLocale;
  }
  return {
    ok: true,
    knobs: {
      amount,
      currency,
      redirect: query.get('redirect') !== '0',
      expiresIn,
      account: query.get('account') === '1',
      locale,
    },
  };
}

/** The knobs of a page whose URL sets none. */
export const DEFAULT_KNOBS: DemoKnobs = {
  amount: DEFAULT_PRODUCT.amount,
  currency: DEFAULT_PRODUCT.currency,
  redirect: true,
  expiresIn: undefined,
  account: false,
  locale: undefined,
};
