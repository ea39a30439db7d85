/*
 * Card networks by number prefix, owned here rather than taken from a library.
 *
 * Measured with vite 8 (lib mode, es, minified; gzip -9) on the same entry validating number,
 * expiry and CVV: card-validator 10.0.4 with credit-card-type 10.3.0 = 5,293 bytes; this
 * folder = 1,833 bytes (2,194 with the formatters and every export). The libraries also name
 * networks differently from the provider (`american-express`, `unionpay`...), know nothing of
 * VISA_ELECTRON or VISA_VPAY, give Hipercard only 606282, and bring networks the provider
 * does not list (mir, troy, verve, hiper, naranja), so a mapping layer would come on top.
 *
 * Ranges come from the networks' published IIN lists (ISO/IEC 7812 registrations as
 * collected by Wikipedia's "Payment card number" table; Elo's list as kept in
 * credit-card-type). Where ranges overlap, the longest matching prefix wins: Elo's 401178
 * beats Visa's 4, Elo's 650031 beats Discover's 65, Hipercard's 3841xx beats Diners' 38.
 */

import { digitsOnly } from './luhn.ts';

/**
 * Every card type the provider names, the one list: the schemas check requests and answers
 * against it, the widget and the sandbox detect networks in it. ELV is a bank-account scheme,
 * never detected from a number.
 */
export const CARD_NETWORKS = [
  'AMEX',
  'CUP',
  'DINERS',
  'DISCOVER',
  'ELO',
  'ELV',
  'HIPERCARD',
  'JCB',
  'MAESTRO',
  'MASTERCARD',
  'VISA',
  'VISA_ELECTRON',
  'VISA_VPAY',
  'UNKNOWN',
] as const;
export type CardNetwork = (typeof CARD_NETWORKS)[number];

/** What a card number can be detected as: every network but ELV. */
export type NumberNetwork = Exclude<CardNetwork, 'ELV'>;

interface NetworkRules {
  /** Number lengths the network issues. */
  lengths: number[];
  /** Digit counts after which a space is shown: [4, 8, 12, 16] reads 4-4-4-4(-3). */
  gaps: number[];
  cvvLength: 3 | 4;
}

/**
 * Comma-separated prefixes; "lo-hi" is an inclusive range whose ends have the same number of
 * digits. ELV is a bank-account scheme and never appears here.
 *
 * VISA_VPAY has no entry on purpose: Visa publishes no V PAY range; V PAY cards sit in issuer
 * BINs spread over the whole Visa space. The only public tables (acquirers' SDKs) claim
 * whole 3-digit Visa prefixes such as 401, which would relabel ordinary Visa cards (the
 * provider's sandbox card 4012 0010 3746 1114 among them). Such cards are detected as VISA,
 * which is what their front shows besides the V PAY mark. Add real BINs here when known.
 */
const PREFIXES: [NumberNetwork, string][] = [
  ['VISA', '4'],
  ['VISA_ELECTRON', '4026,417500,4405,4508,4844,4913,4917'],
  ['MASTERCARD', '51-55,2221-2720'],
  ['AMEX', '34,37'],
  ['DINERS', '300-305,3095,36,38-39'],
  ['DISCOVER', '6011,644-649,65'],
  ['JCB', '3528-3589'],
  // 622126-622925 is UnionPay's range that Discover also accepts: the card is UnionPay's.
  ['CUP', '62,8100-8171'],
  // Maestro's own ranges are 50 and 56-69; 60-69 is left to the networks that really issue
  // there (Discover, UnionPay...), so "6" alone names no network until more digits arrive.
  ['MAESTRO', '493698,50,56-59,63,67'],
  [
    'ELO',
    '401178-401179,431274,438935,451416,457393,457631-457632,504175,506699-506778,' +
      '509000-509999,627780,636297,636368,650031-650033,650035-650051,650405-650439,' +
      '650485-650538,650541-650598,650700-650718,650720-650727,650901-650978,' +
      '651652-651679,655000-655019,655021-655058',
  ],
  ['HIPERCARD', '606282,384100,384140,384160'],
];

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const rules = (lengths: number[], gaps = [4, 8, 12, 16], cvvLength: 3 | 4 = 3) => ({
  lengths,
  gaps,
  cvvLength,
});

const RULES: Record<NumberNetwork, NetworkRules> = {
  AMEX: rules([15], [4, 10], 4),
  CUP: rules(range(14, 19)),
  DINERS: rules([14, 16, 19], [4, 10]),
  DISCOVER: rules([16, 19]),
  ELO: rules([16]),
  HIPERCARD: rules([16, 19]),
  JCB: rules(range(16, 19)),
  MAESTRO: rules(range(12, 19)),
  MASTERCARD: rules([16]),
  // 13-digit Visa numbers are long retired; accepting 13 would call a half-typed 16-digit
  // number complete one time in ten.
  VISA: rules([16, 18, 19]),
  VISA_ELECTRON: rules([16]),
  VISA_VPAY: rules(range(13, 19)),
  UNKNOWN: rules(range(12, 19)),
};

/**
 * PREFIXES split once into [network, lo, hi?] (no hi: a single prefix). Every keystroke in the
 * number field looks the network up, and splitting the table on each lookup took 25 times as
 * long as the lookup.
 */
const RANGES = PREFIXES.flatMap(([network, prefixes]) =>
  prefixes.split(',').map((prefix) => [network, ...prefix.split('-')] as const),
);

/** The network a number belongs to, from its leading digits; the longest matching prefix wins. */
export function detectNetwork(number: string): NumberNetwork {
  const digits = digitsOnly(number);
  let best: NumberNetwork = 'UNKNOWN';
  let bestLength = 0;
  for (const [network, lo = '', hi = lo] of RANGES) {
    const head = digits.slice(0, lo.length);
    // Same-length digit strings compare like the numbers they spell.
    if (lo.length > bestLength && head.length === lo.length && head >= lo && head <= hi) {
      best = network;
      bestLength = lo.length;
    }
  }
  return best;
}

/** The number rules of a network; ELV (no card number) and anything unknown get UNKNOWN's. */
export function networkRules(network: CardNetwork): NetworkRules {
  return (network === 'ELV' ? undefined : RULES[network]) ?? RULES.UNKNOWN;
}
