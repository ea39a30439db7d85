// Checkout request bodies for requests.test.ts: the process (PUT) and create (POST) bodies
// the schemas must refuse, each with the field's dotted path, MISSING or INVALID, and the
// start of the message that names the field; and bodies they must accept. The row types
// are declared here and shared with requests-reader-bodies.ts.
import type * as z from 'zod/mini';
import { CheckoutCreateBodySchema, CheckoutProcessBodySchema } from '../../../src/schemas/index.ts';

const card = {
  name: 'Ada Lovelace',
  number: '4200000000000091',
  expiry_month: '12',
  expiry_year: '2031',
  cvv: '123',
  last_4_digits: '0091',
  type: 'VISA',
};
const withCard = (patch: Record<string, unknown>) => ({
  payment_type: 'card',
  card: { ...card, ...patch },
});
const checkout = {
  checkout_reference: 'order-1',
  amount: 10,
  currency: 'EUR',
  merchant_code: 'M1',
};

export type Row = [what: string, schema: z.ZodMiniType, input: unknown, expected: string];
export type Accepted = [what: string, schema: z.ZodMiniType, input: unknown];

// expected: "<param> <CODE> <start of the message after the param>"
export const CHECKOUT_REFUSED: Row[] = [
  ['empty process body', CheckoutProcessBodySchema, {}, 'payment_type MISSING is required'],
  [
    'unknown payment type',
    CheckoutProcessBodySchema,
    { payment_type: 'paypal' },
    'payment_type INVALID must be one of card, ideal, bancontact, blik, boleto',
  ],
  [
    'card payment without card',
    CheckoutProcessBodySchema,
    { payment_type: 'card' },
    'card MISSING is required when payment_type is card',
  ],
  [
    'card without number',
    CheckoutProcessBodySchema,
    withCard({ number: undefined }),
    'card.number MISSING is required',
  ],
  [
    'number with spaces',
    CheckoutProcessBodySchema,
    withCard({ number: '4200 0000 0000 0091' }),
    'card.number INVALID must be 12 to 19 digits',
  ],
  [
    'number as a JSON number',
    CheckoutProcessBodySchema,
    withCard({ number: 4200000000000091 }),
    'card.number INVALID must be a string of digits',
  ],
  [
    'number too short',
    CheckoutProcessBodySchema,
    withCard({ number: '42000000091', last_4_digits: '0091' }),
    'card.number INVALID must be 12 to 19 digits',
  ],
  [
    'month 13',
    CheckoutProcessBodySchema,
    withCard({ expiry_month: '13' }),
    'card.expiry_month INVALID must be 01 to 12',
  ],
  [
    'month 00',
    CheckoutProcessBodySchema,
    withCard({ expiry_month: '00' }),
    'card.expiry_month INVALID must be 01 to 12',
  ],
  [
    'month without leading zero',
    CheckoutProcessBodySchema,
    withCard({ expiry_month: '1' }),
    'card.expiry_month INVALID must be 01 to 12',
  ],
  [
    'three-digit year',
    CheckoutProcessBodySchema,
    withCard({ expiry_year: '203' }),
    'card.expiry_year INVALID must be YY or YYYY',
  ],
  [
    'year with a letter',
    CheckoutProcessBodySchema,
    withCard({ expiry_year: '2O31' }),
    'card.expiry_year INVALID must be YY or YYYY',
  ],
  [
    'missing year',
    CheckoutProcessBodySchema,
    withCard({ expiry_year: undefined }),
    'card.expiry_year MISSING is required',
  ],
  [
    'two-digit cvv',
    CheckoutProcessBodySchema,
    withCard({ cvv: '12' }),
    'card.cvv INVALID must be 3 or 4 digits',
  ],
  [
    'five-digit cvv',
    CheckoutProcessBodySchema,
    withCard({ cvv: '12345' }),
    'card.cvv INVALID must be 3 or 4 digits',
  ],
  [
    'missing cvv',
    CheckoutProcessBodySchema,
    withCard({ cvv: undefined }),
    'card.cvv MISSING is required',
  ],
  [
    'four-digit zip',
    CheckoutProcessBodySchema,
    withCard({ zip_code: '1234' }),
    'card.zip_code INVALID must be 5 digits',
  ],
  [
    'ZIP+4 sent as zip_code',
    CheckoutProcessBodySchema,
    withCard({ zip_code: '12345-6789' }),
    'card.zip_code INVALID must be 5 digits',
  ],
  [
    'blank name',
    CheckoutProcessBodySchema,
    withCard({ name: '   ' }),
    'card.name INVALID must not be empty',
  ],
  [
    'unknown network',
    CheckoutProcessBodySchema,
    withCard({ type: 'BOGUS' }),
    'card.type INVALID must be a card network',
  ],
  [
    'last four not of the number',
    CheckoutProcessBodySchema,
    withCard({ last_4_digits: '1111' }),
    'card.last_4_digits INVALID must be the last four digits',
  ],
  [
    'token without customer',
    CheckoutProcessBodySchema,
    { payment_type: 'card', token: 'tok' },
    'customer_id MISSING is required when token is given',
  ],
  [
    'zero installments',
    CheckoutProcessBodySchema,
    { ...withCard({}), installments: 0 },
    'installments INVALID must be 1 to 12',
  ],
  [
    '13 installments',
    CheckoutProcessBodySchema,
    { ...withCard({}), installments: 13 },
    'installments INVALID must be 1 to 12',
  ],
  [
    'fractional installments',
    CheckoutProcessBodySchema,
    { ...withCard({}), installments: 1.5 },
    'installments INVALID must be a whole number',
  ],
  [
    'one-off mandate',
    CheckoutProcessBodySchema,
    { ...withCard({}), mandate: { type: 'once', user_agent: 'UA' } },
    'mandate.type INVALID must be "recurrent"',
  ],
  [
    'mandate without user agent',
    CheckoutProcessBodySchema,
    { ...withCard({}), mandate: { type: 'recurrent' } },
    'mandate.user_agent MISSING is required',
  ],
  [
    'mandate with a bad IP',
    CheckoutProcessBodySchema,
    { ...withCard({}), mandate: { type: 'recurrent', user_agent: 'UA', user_ip: '300.1.1.1' } },
    'mandate.user_ip INVALID must be an IPv4 or IPv6 address',
  ],
  [
    'bad email',
    CheckoutProcessBodySchema,
    { payment_type: 'ideal', personal_details: { email: 'nope' } },
    'personal_details.email INVALID must be an email address',
  ],
  [
    'country by name',
    CheckoutProcessBodySchema,
    { payment_type: 'ideal', personal_details: { address: { country: 'Netherlands' } } },
    'personal_details.address.country INVALID must be an ISO 3166-1 alpha-2 code',
  ],
  [
    'birth date in local form',
    CheckoutProcessBodySchema,
    { payment_type: 'boleto', personal_details: { birth_date: '31/12/1993' } },
    'personal_details.birth_date INVALID must be a date',
  ],

  [
    'no reference',
    CheckoutCreateBodySchema,
    { ...checkout, checkout_reference: undefined },
    'checkout_reference MISSING is required',
  ],
  [
    'reference over 90 characters',
    CheckoutCreateBodySchema,
    { ...checkout, checkout_reference: 'r'.repeat(91) },
    'checkout_reference INVALID must be at most 90 characters',
  ],
  [
    'no amount',
    CheckoutCreateBodySchema,
    { ...checkout, amount: undefined },
    'amount MISSING is required',
  ],
  [
    'amount as a string',
    CheckoutCreateBodySchema,
    { ...checkout, amount: '10.00' },
    'amount INVALID must be a number',
  ],
  [
    'negative amount',
    CheckoutCreateBodySchema,
    { ...checkout, amount: -1 },
    'amount INVALID must not be negative',
  ],
  [
    'zero amount for a payment',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 0 },
    'amount INVALID must be greater than 0 (0 only with purpose SETUP_RECURRING_PAYMENT, which saves a card)',
  ],
  [
    'NaN, a price read from an empty field',
    CheckoutCreateBodySchema,
    { ...checkout, amount: Number('') / 0 },
    'amount INVALID must be a finite number (not NaN)',
  ],
  [
    'an amount past 15 digits, which a number cannot carry to the cent',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 10_000_000_000_000 },
    'amount INVALID must be less than 10000000000000 in EUR (not 10000000000000)',
  ],
  [
    'a price times a quantity off the cent',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 0.1 * 3 },
    'amount INVALID must have at most 2 decimal places in EUR (not 0.30000000000000004)',
  ],
  [
    'a fraction of a cent',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 10.005 },
    'amount INVALID must have at most 2 decimal places in EUR (not 10.005)',
  ],
  [
    'a fraction of a forint',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 1000.5, currency: 'HUF' },
    'amount INVALID must be a whole number in HUF (not 1000.5)',
  ],
  [
    'no currency',
    CheckoutCreateBodySchema,
    { ...checkout, currency: undefined },
    'currency MISSING is required',
  ],
  [
    'lower-case currency',
    CheckoutCreateBodySchema,
    { ...checkout, currency: 'eur' },
    'currency INVALID must be a three-letter ISO 4217 code',
  ],
  [
    'no merchant code',
    CheckoutCreateBodySchema,
    { ...checkout, merchant_code: undefined },
    'merchant_code MISSING is required',
  ],
  [
    'unknown purpose',
    CheckoutCreateBodySchema,
    { ...checkout, purpose: 'DONATION' },
    'purpose INVALID must be CHECKOUT or SETUP_RECURRING_PAYMENT',
  ],
  [
    'script URL as return_url',
    CheckoutCreateBodySchema,
    { ...checkout, return_url: 'javascript:alert(1)' },
    'return_url INVALID must be an http or https URL',
  ],
  [
    'relative redirect_url',
    CheckoutCreateBodySchema,
    { ...checkout, redirect_url: '/done' },
    'redirect_url INVALID must be an http or https URL',
  ],
  [
    'bad pay_to_email',
    CheckoutCreateBodySchema,
    { ...checkout, pay_to_email: 'merchant' },
    'pay_to_email INVALID must be an email address',
  ],
  [
    'valid_until in words',
    CheckoutCreateBodySchema,
    { ...checkout, valid_until: 'tomorrow' },
    'valid_until INVALID must be an ISO 8601 timestamp',
  ],
];

export const CHECKOUT_ACCEPTED: Accepted[] = [
  // Whole cents, though floating point cannot hold them exactly (1.1 * 100 is 110.00000000000001).
  ['an amount in cents', CheckoutCreateBodySchema, { ...checkout, amount: 1.1 }],
  [
    'the largest amount to the cent',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 9_999_999_999_999.99 },
  ],
  [
    '0 for a checkout that saves a card',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 0, purpose: 'SETUP_RECURRING_PAYMENT' },
  ],
  [
    'a price times a quantity in cents',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 19.99 * 3 },
  ],
  [
    'a dinar to the fils',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 5.125, currency: 'KWD' },
  ],
  ['card payment', CheckoutProcessBodySchema, withCard({})],
  [
    'two-digit year and US zip',
    CheckoutProcessBodySchema,
    withCard({ expiry_year: '31', zip_code: '94103' }),
  ],
  [
    'AMEX with a four-digit cvv',
    CheckoutProcessBodySchema,
    withCard({ number: '378282246310005', last_4_digits: '0005', cvv: '1234', type: 'AMEX' }),
  ],
  [
    'saved card',
    CheckoutProcessBodySchema,
    { payment_type: 'card', token: 'tok', customer_id: 'C1' },
  ],
  [
    'card saved for later',
    CheckoutProcessBodySchema,
    { ...withCard({}), mandate: { type: 'recurrent', user_agent: 'UA', user_ip: '2001:db8::1' } },
  ],
  ['12 installments', CheckoutProcessBodySchema, { ...withCard({}), installments: 12 }],
  [
    'boleto',
    CheckoutProcessBodySchema,
    {
      payment_type: 'boleto',
      personal_details: { tax_id: '423.378.593-47', address: { country: 'BR' } },
    },
  ],
  ['bancontact', CheckoutProcessBodySchema, { payment_type: 'bancontact' }],
  ['minimal checkout', CheckoutCreateBodySchema, checkout],
  [
    'zero-amount card setup',
    CheckoutCreateBodySchema,
    { ...checkout, amount: 0, purpose: 'SETUP_RECURRING_PAYMENT' },
  ],
  [
    'loopback return_url',
    CheckoutCreateBodySchema,
    { ...checkout, return_url: 'http://127.0.0.1:4010/payments/webhook' },
  ],
];
