// Reader request bodies for requests.test.ts: the reader checkout and pairing bodies the
// schemas must refuse, each with the field's dotted path, MISSING or INVALID, and the start
// of the message that names the field; and bodies they must accept.
import { ReaderCheckoutBodySchema, ReaderCreateBodySchema } from '../../../src/schemas/index.ts';
import type { Accepted, Row } from './requests-checkout-bodies.ts';

const reader = { total_amount: { value: 1000, currency: 'EUR', minor_unit: 2 } };

// expected: "<param> <CODE> <start of the message after the param>"
export const READER_REFUSED: Row[] = [
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
    'total_amount.minor_unit INVALID must be 0 for CLP',
  ],
  [
    'XOF with decimals',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 5000, currency: 'XOF', minor_unit: 2 } },
    'total_amount.minor_unit INVALID must be 0 for XOF',
  ],
  [
    'IQD to the cent',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 1000, currency: 'IQD', minor_unit: 2 } },
    'total_amount.minor_unit INVALID must be 3 for IQD',
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
];

export const READER_ACCEPTED: Accepted[] = [
  ['reader minimal', ReaderCheckoutBodySchema, reader],
  [
    'HUF without decimals',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 1500, currency: 'HUF', minor_unit: 0 } },
  ],
  [
    'XOF without decimals',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 5000, currency: 'XOF', minor_unit: 0 } },
  ],
  [
    'IQD to the fils',
    ReaderCheckoutBodySchema,
    { total_amount: { value: 1250125, currency: 'IQD', minor_unit: 3 } },
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
