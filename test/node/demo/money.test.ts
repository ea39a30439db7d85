// The demo's amounts follow the table the handler charges by and the widget writes with
// (src/schemas/currencies.ts), not Node's own currency data: the shop page's price reads as the
// widget's Pay button does in English, and the in-person till takes an amount in the
// currency's minor unit. Node's Intl wrote IDR 15000.5 as "IDR 15,001" and gave IDR and IQD
// no decimals, where ISO 4217 gives them two and three.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  exampleAmount,
  minorUnitOf,
  toMinorUnits,
} from '../../../server-example/in-person/money.ts';
import { formatPrice } from '../../../server-example/pages.ts';
import { formatMoney } from '../../../src/shared/money.ts';

/** Currency, amount, and the figure the page shows (the symbol is the engine's to choose). */
const PRICES = [
  ['IDR', 15000.5, '15,000.50'],
  ['HUF', 12500, '12,500'],
  ['KWD', 5, '5.000'],
  ['EUR', 12.5, '12.50'],
] as const;

for (const [currency, amount, figure] of PRICES) {
  test(`the shop page prices ${amount} ${currency} as the widget writes it: ${figure}`, () => {
    const price = formatPrice(amount, currency);
    assert.equal(price.replace(/[^\d.,]/g, ''), figure, price);
    assert.equal(price, formatMoney('en-GB', amount, currency));
  });
}

test('the in-person till takes an amount to the currency’s minor unit, ISO 4217’s', () => {
  assert.deepEqual(
    ['IDR', 'IQD', 'XOF', 'HUF', 'EUR'].map(minorUnitOf),
    [2, 3, 0, 0, 2],
    'IDR has cents and IQD fils, which Intl leaves out; XOF and HUF are whole',
  );
  assert.equal(toMinorUnits('1250.125', minorUnitOf('IQD')), 1_250_125);
  assert.equal(toMinorUnits('15000.50', minorUnitOf('IDR')), 1_500_050);
  assert.equal(toMinorUnits('5000.5', minorUnitOf('XOF')), undefined);
  assert.equal(exampleAmount(minorUnitOf('XOF')), '1250');
});
