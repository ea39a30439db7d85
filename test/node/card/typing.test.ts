import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CardNetwork,
  cvvLength,
  deleteOverSeparator,
  isRetypedField,
  isTypedField,
  type RetypedField,
  retype,
} from '../../../src/card/index.ts';

// "|" marks the caret: before and after one edit.
function at(text: string): [string, number] {
  return [text.replace('|', ''), text.indexOf('|')];
}
function shown(value: string, caret: number): string {
  return `${value.slice(0, caret)}|${value.slice(caret)}`;
}

describe('retype: a card field after an edit, with the caret after the same digit', () => {
  // [field, text with caret as the input holds it after the edit, what it shows, network, why]
  const cases: [RetypedField, string, string, CardNetwork | undefined, string][] = [
    ['number', '4|', '4|', undefined, 'one digit'],
    ['number', '42424|', '4242 4|', undefined, 'a gap appears after four digits'],
    ['number', '4200000000000091|', '4200 0000 0000 0091|', undefined, 'a pasted Visa'],
    ['number', '4200 0000-0000 0091|', '4200 0000 0000 0091|', undefined, 'spaces and dashes'],
    ['number', '429|4 2424 2', '429|4 2424 2', undefined, 'a digit typed mid-number'],
    [
      'number',
      '4294 |2424 2',
      '4294| 2424 2',
      undefined,
      'a caret after a gap goes back to its digit',
    ],
    ['number', '378282246310005|', '3782 822463 10005|', undefined, 'AMEX groups 4-6-5'],
    ['number', '42000000000000919999|', '4200 0000 0000 0091 999|', undefined, 'Visa stops at 19'],
    ['number', '4a2|', '42|', undefined, 'letters fall away'],
    ['number', '|', '|', undefined, 'empty'],
    ['number', '４２４２４|', '4242 4|', undefined, "a Japanese keyboard's full-width digits"],
    ['number', '４２４２ ４|２', '4242 4|2', undefined, 'the caret kept among full-width digits'],
    ['number', '٤٢٤٢٤|', '4242 4|', undefined, "an Arabic keyboard's digits"],
    ['number', '٤٢٤٢ ٤|٢', '4242 4|2', undefined, 'the caret kept among Arabic digits'],
    ['number', '۴۲۴۲۴|', '4242 4|', undefined, "a Persian keyboard's digits"],
    ['number', '٠١٢٣٤٥٦٧٨٩|', '0123 4567 89|', undefined, 'each Arabic digit its own value'],
    ['number', '۰۱۲۳۴۵۶۷۸۹|', '0123 4567 89|', undefined, 'each Persian digit its own value'],
    ['number', '０１２３４５６７８９|', '0123 4567 89|', undefined, 'each full-width digit'],
    ['expiry', '1234|', '12 / 34|', undefined, 'MMYY'],
    ['expiry', '5|', '05|', undefined, 'a month that can only be one digit'],
    ['expiry', '1/|', '01|', undefined, 'a slash ends the month'],
    ['expiry', '12 / 3|4', '12 / 3|4', undefined, 'caret between year digits'],
    ['expiry', '12 / |', '12|', undefined, 'no separator ahead of the year'],
    ['expiry', '１２/２９|', '12 / 29|', undefined, 'full-width digits'],
    ['expiry', '１２／２９|', '12 / 29|', undefined, 'a full-width slash ends the month'],
    ['expiry', '١/|', '01|', undefined, 'Arabic digits, a slash ends the month'],
    ['expiry', '١٢٢٩|', '12 / 29|', undefined, 'Arabic digits'],
    ['expiry', '۱۲/۲۹|', '12 / 29|', undefined, 'Persian digits'],
    ['cvv', '1a2345|', '123|', 'VISA', 'digits only, three for Visa'],
    ['cvv', '12345|', '1234|', 'AMEX', 'four for AMEX'],
    ['cvv', '12345|', '1234|', undefined, 'four until the network is known'],
    ['cvv', '1|23', '1|23', 'VISA', 'the caret stays inside'],
    ['cvv', '１２３|', '123|', 'VISA', 'full-width digits'],
    ['cvv', '١٢٣|', '123|', 'VISA', 'Arabic digits'],
    ['cvv', '۱۲۳۴|', '1234|', 'AMEX', 'Persian digits'],
    ['zip', '٩٤١٠|٧', '9410|7', undefined, 'Arabic digits, the caret where it was'],
    ['zip', '١٢٣٤٥-٦٧٨٩|', '12345-6789|', undefined, 'a ZIP+4 keeps its dash'],
    ['taxId', '۱۲۳.۴۵۶.۷۸۹-۰۹|', '123.456.789-09|', undefined, 'Persian digits, dots kept'],
    ['taxId', '１２３|', '123|', undefined, 'full-width digits'],
    ['postalCode', '０１３１０-１００|', '01310-100|', undefined, 'full-width digits, dash kept'],
  ];
  for (const [field, before, after, network, why] of cases) {
    it(`${field} ${JSON.stringify(before)} -> ${JSON.stringify(after)}: ${why}`, () => {
      const [value, caret] = at(before);
      const next = retype(field, value, caret, network);
      assert.equal(shown(next.value, next.caret), after);
    });
  }
});

describe('deleteOverSeparator', () => {
  // [text with caret, text after a backspace there, or undefined: a plain backspace is right]
  const cases: [string, string | undefined, string][] = [
    ['4294 |2424 2', '429|2424 2', 'right after a gap: the digit before it goes'],
    ['12 / |3', '1|3', 'right after the expiry separator'],
    ['4242|', undefined, 'after a digit: the plain backspace'],
    ['|4242', undefined, 'at the start'],
    [' |4242', undefined, 'no digit before the caret'],
  ];
  for (const [before, after, why] of cases) {
    it(`${JSON.stringify(before)}: ${why}`, () => {
      const [value, caret] = at(before);
      const next = deleteOverSeparator(value, caret, caret);
      assert.equal(next && shown(next.value, next.caret), after);
    });
  }

  it('leaves a selection to the browser', () => {
    assert.equal(deleteOverSeparator('4242 4242', 3, 7), undefined);
    assert.equal(deleteOverSeparator('4242 4242', 3, 7, true), undefined);
  });

  // [text with caret, text after Delete there, or undefined: a plain Delete is right]
  const forward: [string, string | undefined, string][] = [
    ['4242| 4242', '4242| 242', 'right before a gap: the digit after it goes'],
    ['12| / 34', '12| / 4', 'right before the expiry separator, which stays'],
    ['42|42', undefined, 'before a digit: the plain Delete'],
    ['4242|', undefined, 'at the end'],
    ['12| / ', undefined, 'no digit after the caret'],
  ];
  for (const [before, after, why] of forward) {
    it(`Delete at ${JSON.stringify(before)}: ${why}`, () => {
      const [value, caret] = at(before);
      const next = deleteOverSeparator(value, caret, caret, true);
      assert.equal(next && shown(next.value, next.caret), after);
    });
  }
});

describe('cvvLength, isTypedField and isRetypedField', () => {
  it('is the network’s code length, AMEX’s four while unknown', () => {
    assert.equal(cvvLength('VISA'), 3);
    assert.equal(cvvLength('AMEX'), 4);
    assert.equal(cvvLength(undefined), 4);
  });
  it('names only the fields that format as typed', () => {
    assert.deepEqual(['number', 'expiry', 'cvv', 'name', 'zip', 'email'].filter(isTypedField), [
      'number',
      'expiry',
      'cvv',
    ]);
  });
  it('names the fields typing rewrites: the card fields, the ZIP code, the tax id, the postal code', () => {
    const fields = ['number', 'expiry', 'cvv', 'name', 'zip', 'email', 'taxId', 'postalCode'];
    assert.deepEqual(fields.filter(isRetypedField), [
      'number',
      'expiry',
      'cvv',
      'zip',
      'taxId',
      'postalCode',
    ]);
    // retype takes only those, as tsc checks: a name is kept as typed, and never passed to it.
    // @ts-expect-error a name is not a RetypedField
    'name' satisfies RetypedField;
  });
});
