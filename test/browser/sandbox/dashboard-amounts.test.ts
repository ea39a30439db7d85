// The sandbox dashboard's amounts (checkouts, transactions, refunds, readers) have the
// currency's minor unit, as the widget's do, in every engine: Firefox and WebKit wrote whole
// forints as "HUF 12,500.00", Chromium an IDR 15000.5 checkout as "IDR 15,001".

import { expect } from '@open-wc/testing';
import { amount } from '../../../src/sandbox/dashboard/format.ts';

describe('sandbox dashboard: amounts', () => {
  for (const [value, currency, written] of [
    [12500, 'HUF', 'HUF 12,500'],
    [25000, 'COP', 'COP 25,000'],
    [5990, 'CLP', 'CLP 5,990'],
    [1500, 'JPY', '¥1,500'],
    [5.125, 'KWD', 'KWD 5.125'],
    [15000.5, 'IDR', 'IDR 15,000.50'],
    [25, 'EUR', '€25.00'],
  ] as const) {
    it(`${value} ${currency} reads "${written}"`, () => {
      expect(amount(value, currency).replace(/\s/g, ' ')).to.equal(written);
    });
  }
});
