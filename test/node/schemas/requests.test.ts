// Malformed request bodies are refused, and describeIssue turns the refusal
// into the provider's error: the field's dotted path, MISSING or INVALID, and
// a sentence that names the field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import {
  CheckoutCreateBodySchema,
  CheckoutProcessBodySchema,
  CustomerCreateBodySchema,
  describeIssue,
  OperatorCreateBodySchema,
  OperatorUpdateBodySchema,
  ReaderCheckoutBodySchema,
  ReaderCreateBodySchema,
  ReaderSchema,
  RefundBodySchema,
} from '../../../src/schemas/index.ts';

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
const reader = { total_amount: { value: 1000, currency: 'EUR', minor_unit: 2 } };

type Row = [what: string, schema: z.ZodMiniType, input: unknown, expected: string];

// expected: "<param> <CODE> <start of the message after the param>"
const REFUSED: Row[] = [
  ['empty process body', CheckoutProcessBodySchema, {}, 'payment_type MISSING is required'],
  [
    'unknown payment type',
    CheckoutProcessBodySchema,
    { payment_type: 'paypal' },
    'payment_type INVALID must be one of card, boleto',
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
    'amount INVALID must be greater than 0',
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

  ['no total amount', ReaderCheckoutBodySchema, {}, 'total_amount MISSING is required'],
  [
    'zero value',
    ReaderCheckoutBodySchema,
    { total_amount: { ...reader.total_amount, value: 0 } },
    'total_amount.value INVALID must be greater than 0',
  ],
  [
    'decimal value',
    ReaderCheckoutBodySchema,
    { total_amount: { ...reader.total_amount, value: 10.5 } },
    'total_amount.value INVALID must be a whole number of minor units',
  ],
  [
    'no minor unit',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 100, currency: 'EUR' } },
    'total_amount.minor_unit MISSING is required',
  ],
  [
    'CLP with decimals',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 1000, currency: 'CLP', minor_unit: 2 } },
    'total_amount.minor_unit INVALID must be 0 for CLP, COP and HUF',
  ],
  [
    'four-letter currency',
    ReaderCheckoutBodySchema,
    { total_amount: { ...reader.total_amount, currency: 'EURO' } },
    'total_amount.currency INVALID must be a three-letter',
  ],
  [
    'tip rates descending',
    ReaderCheckoutBodySchema,
    { ...reader, tip_rates: [0.2, 0.1] },
    'tip_rates INVALID must be in ascending order',
  ],
  [
    'tip rate repeated',
    ReaderCheckoutBodySchema,
    { ...reader, tip_rates: [0.1, 0.1] },
    'tip_rates INVALID must be in ascending order',
  ],
  [
    'tip rate of 0',
    ReaderCheckoutBodySchema,
    { ...reader, tip_rates: [0, 0.1] },
    'tip_rates.0 INVALID must be between 0.01 and 0.99',
  ],
  [
    'tip rate of 100 %',
    ReaderCheckoutBodySchema,
    { ...reader, tip_rates: [0.1, 1] },
    'tip_rates.1 INVALID must be between 0.01 and 0.99',
  ],
  [
    '13 reader installments',
    ReaderCheckoutBodySchema,
    { ...reader, installments: 13 },
    'installments INVALID must be 1 to 12',
  ],
  [
    'plain-HTTP webhook',
    ReaderCheckoutBodySchema,
    { ...reader, return_url: 'http://example.com/hook' },
    'return_url INVALID must be an https URL',
  ],
  [
    'not a URL',
    ReaderCheckoutBodySchema,
    { ...reader, return_url: 'hook' },
    'return_url INVALID must be an https URL',
  ],
  [
    'prepaid card type',
    ReaderCheckoutBodySchema,
    { ...reader, card_type: 'prepaid' },
    'card_type INVALID must be credit or debit',
  ],
  [
    'affiliate without key',
    ReaderCheckoutBodySchema,
    { ...reader, affiliate: { app_id: 'a', foreign_transaction_id: 'f' } },
    'affiliate.key MISSING is required',
  ],

  ['no pairing code', ReaderCreateBodySchema, {}, 'pairing_code MISSING is required'],
  [
    'seven-character code',
    ReaderCreateBodySchema,
    { pairing_code: 'ABC1234' },
    'pairing_code INVALID must be 8 or 9 letters or digits',
  ],
  [
    'ten-character code',
    ReaderCreateBodySchema,
    { pairing_code: 'ABCD123456' },
    'pairing_code INVALID must be 8 or 9 letters or digits',
  ],
  [
    'code with a dash',
    ReaderCreateBodySchema,
    { pairing_code: 'ABCD-1234' },
    'pairing_code INVALID must be 8 or 9 letters or digits',
  ],
  [
    'reader name over 500',
    ReaderCreateBodySchema,
    { pairing_code: '4WLFDSBF', name: 'n'.repeat(501) },
    'name INVALID must be at most 500 characters',
  ],
  [
    'meta value over 256',
    ReaderCreateBodySchema,
    { pairing_code: '4WLFDSBF', meta: { note: 'm'.repeat(257) } },
    'meta.note INVALID must be at most 256 characters',
  ],

  ['customer without id', CustomerCreateBodySchema, {}, 'customer_id MISSING is required'],
  [
    'customer with empty id',
    CustomerCreateBodySchema,
    { customer_id: '' },
    'customer_id INVALID must not be empty',
  ],
  [
    'operator without password',
    OperatorCreateBodySchema,
    { username: 'op@example.com' },
    'password MISSING is required',
  ],
  [
    'short operator password',
    OperatorCreateBodySchema,
    { username: 'op@example.com', password: 'short' },
    'password INVALID must be at least 8 characters',
  ],
  [
    'operator username not an email',
    OperatorCreateBodySchema,
    { username: 'op', password: 'long enough' },
    'username INVALID must be an email address',
  ],
  [
    'disabled as a string',
    OperatorUpdateBodySchema,
    { disabled: 'yes' },
    'disabled INVALID must be true or false',
  ],
  ['negative refund', RefundBodySchema, { amount: -5 }, 'amount INVALID must be greater than 0'],
  [
    'refund amount as a string',
    RefundBodySchema,
    { amount: '5' },
    'amount INVALID must be a number',
  ],
];

const ACCEPTED: [what: string, schema: z.ZodMiniType, input: unknown][] = [
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
  ['reader minimal', ReaderCheckoutBodySchema, reader],
  [
    'HUF without decimals',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 1500, currency: 'HUF', minor_unit: 0 } },
  ],
  ['tip rates ascending', ReaderCheckoutBodySchema, { ...reader, tip_rates: [0.01, 0.1, 0.99] }],
  [
    'https webhook',
    ReaderCheckoutBodySchema,
    { ...reader, return_url: 'https://example.com/hook' },
  ],
  [
    'sandbox webhook on 127.0.0.1',
    ReaderCheckoutBodySchema,
    { ...reader, return_url: 'http://127.0.0.1:3000/hook' },
  ],
  [
    'sandbox webhook on localhost',
    ReaderCheckoutBodySchema,
    { ...reader, return_url: 'http://localhost:3000/hook' },
  ],
  ['nine-character code', ReaderCreateBodySchema, { pairing_code: '4WLFDSBF9' }],
];

describe('malformed requests name the field', () => {
  for (const [what, schema, input, expected] of REFUSED) {
    test(`${what}: ${expected}`, () => {
      const result = z.safeParse(schema, input);
      assert.equal(result.success, false, 'refused');
      const issue = describeIssue(result.error);
      const [param, code, ...rest] = expected.split(' ');
      assert.equal(issue.param, param);
      assert.equal(issue.code, code);
      assert.ok(
        issue.message.startsWith(`${param} ${rest.join(' ')}`),
        `"${issue.message}" should start with "${param} ${rest.join(' ')}"`,
      );
    });
  }

  test('no message repeats a card number or security code', () => {
    const secrets = ['4200000000000091', '4200 0000 0000 0091', '12345'];
    for (const [, schema, input] of REFUSED) {
      const result = z.safeParse(schema, input);
      const { message } = describeIssue(result.error);
      for (const secret of secrets) assert.ok(!message.includes(secret), message);
    }
  });
});

describe('well-formed requests pass', () => {
  for (const [what, schema, input] of ACCEPTED) {
    test(what, () => {
      const result = z.safeParse(schema, input);
      assert.ok(result.success, JSON.stringify(result.error?.issues));
    });
  }
});

describe('describeIssue on its own', () => {
  test('a schema without hand-written messages still names the field', () => {
    const result = z.safeParse(ReaderSchema, { id: 7 });
    assert.deepEqual(describeIssue(result.error), {
      param: 'id',
      code: 'INVALID',
      message: 'id must be a string',
    });
  });

  test('with the input, an absent field of such a schema is MISSING', () => {
    const input = { name: 'Frontdesk' };
    const result = z.safeParse(ReaderSchema, input);
    assert.deepEqual(describeIssue(result.error, input), {
      param: 'id',
      code: 'MISSING',
      message: 'id is required',
    });
  });

  test('a body that is not an object is named "body"', () => {
    const result = z.safeParse(CheckoutProcessBodySchema, 'card');
    const issue = describeIssue(result.error);
    assert.equal(issue.param, 'body');
    assert.equal(issue.code, 'INVALID');
    assert.match(issue.message, /^body /);
  });

  test('something that is not a zod error still gives a usable answer', () => {
    assert.deepEqual(describeIssue(new Error('boom')), {
      param: 'body',
      code: 'INVALID',
      message: 'body is invalid',
    });
  });
});
