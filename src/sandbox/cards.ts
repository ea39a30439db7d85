// Card rules of the sandbox: Luhn, network detection and the documented test-card outcomes
// (CONTRACT §5). Pure functions, so tests can table them without a server.

import type { CardNetwork } from '../schemas/index.ts';

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Prefix ranges, most specific first: Elo and Hipercard overlap Visa/Mastercard ranges.
const NETWORK_PREFIXES: readonly [RegExp, CardNetwork][] = [
  [
    /^(4011(78|79)|43(1274|8935)|45(1416|7393|763[12])|50(4175|6699|67[0-7]\d|9\d{3})|627780|636(297|368))/,
    'ELO',
  ],
  [/^(606282|3841)/, 'HIPERCARD'],
  [/^3[47]/, 'AMEX'],
  [/^3(0[0-5]|[689])/, 'DINERS'],
  [/^(6011|64[4-9]|65)/, 'DISCOVER'],
  [/^35(2[89]|[3-8])/, 'JCB'],
  [/^62/, 'CUP'],
  [/^(5[1-5]|2(2[2-9]|[3-6]|7[01]|720))/, 'MASTERCARD'],
  [/^(5018|5020|5038|5893|6304|67[0-9]{2})/, 'MAESTRO'],
  [/^4/, 'VISA'],
];

/** The network the number belongs to, `UNKNOWN` when no range matches. */
export function detectNetwork(number: string): CardNetwork {
  for (const [re, network] of NETWORK_PREFIXES) if (re.test(number)) return network;
  return 'UNKNOWN';
}

export const CHALLENGE_CARDS: ReadonlySet<string> = new Set([
  '4200000000000042',
  '4200000000000067',
  '5200000000000015',
  '5200000000000049',
]);

/** 3DS technical error: the attempt fails without a challenge. */
export const TECHNICAL_ERROR_CARDS: ReadonlySet<string> = new Set([
  '4012001037461114',
  '5434580000000006',
]);

/** Amounts the issuer declines whatever the card (compared in minor units, no float drift). */
const DECLINED_MINOR_AMOUNTS: ReadonlySet<number> = new Set([1100, 4201, 4276, 4291]);

export function isDeclinedAmount(amount: number): boolean {
  return DECLINED_MINOR_AMOUNTS.has(Math.round(amount * 100));
}

export type CardOutcome = 'paid' | 'challenge' | 'technical-error';

/** What presenting this number does before authorisation (the amount is checked after). */
export function cardOutcome(number: string): CardOutcome {
  if (TECHNICAL_ERROR_CARDS.has(number)) return 'technical-error';
  if (CHALLENGE_CARDS.has(number)) return 'challenge';
  return 'paid';
}

/** True when MM/YY(YY) is the current month or later. */
export function expiryInFuture(month: string, year: string, now = new Date()): boolean {
  const y = year.length === 2 ? 2000 + Number(year) : Number(year);
  const m = Number(month);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return y * 12 + (m - 1) >= current;
}
