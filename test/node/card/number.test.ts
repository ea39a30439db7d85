import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNumber, isCardNumber, luhn } from '../../../src/card/index.ts';

describe('luhn', () => {
  const cases: [string, boolean][] = [
    ['79927398713', true],
    ['79927398710', false],
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['4111111111111121', false], // two neighbours swapped
    ['0', true],
    ['', false],
    ['4111 1111 1111 1111', false], // callers strip separators first
    ['12a4', false],
  ];
  for (const [digits, expected] of cases) {
    it(`"${digits}" ${expected ? 'passes' : 'fails'}`, () => assert.equal(luhn(digits), expected));
  }
});

describe('isCardNumber', () => {
  // [input, isValid, why]
  const cases: [string, boolean, string][] = [
    ['', false, 'empty field may still be filled'],
    ['4', false, 'one digit'],
    ['411', false, 'a Visa being typed'],
    ['41x', false, 'a letter can never become a card number'],
    ['4111.1111', false, 'dots are not separators'],
    ['4111 1111 1111 1111', true, 'spaces between groups'],
    ['4111-1111-1111-1111', true, 'dashes between groups'],
    [' 4111111111111111 ', true, 'surrounding spaces from a paste'],
    ['4111111111111112', false, 'bad check digit at 16, but Visa also issues 18 and 19'],
    ['4111111111111111113', false, 'bad check digit at Visa maximum length'],
    ['41111111111111111111', false, 'one digit beyond Visa maximum'],
    ['5555555555554445', false, 'bad check digit at the only Mastercard length'],
    ['55555555555544440', false, 'longer than any Mastercard'],
    ['37828224631000', false, 'AMEX one digit short'],
    ['378282246310006', false, 'AMEX with a bad check digit'],
    ['3782822463100050', false, 'AMEX with one digit too many'],
    ['6200000000000001', true, 'UnionPay without a Luhn check digit'],
    ['62000000000000', true, 'UnionPay at its shortest length'],
    ['6200000000', false, 'UnionPay being typed'],
    ['6011000000000001', false, 'Discover is Luhn-checked, unlike UnionPay (19 digits may follow)'],
    ['6011000000000001000', false, 'Discover at its longest with a bad check digit'],
    ['9999999999999995', true, 'an unlisted network with a good check digit'],
    ['99999999995', false, 'unlisted network shorter than 12 digits'],
    ['0000000000000000', false, 'no card number starts with 0'],
    ['٤١١١١١١١١١١١١١١١', false, 'non-ASCII digits'],
  ];
  for (const [input, isValid, why] of cases) {
    it(`"${input}": ${why}`, () => {
      assert.equal(isCardNumber(input), isValid);
    });
  }
});

describe('formatNumber', () => {
  // A "|" marks the caret: [what the input holds after the user's edit, what it shows next, why].
  const cases: [string, string, string][] = [
    ['4|', '4|', 'first digit'],
    ['4242|', '4242|', 'no space until a fifth digit exists'],
    ['42424|', '4242 4|', 'fifth digit opens a group'],
    ['4242 42424|', '4242 4242 4|', 'ninth digit opens a group'],
    ['4200 0000-0000 0091|', '4200 0000 0000 0091|', 'paste with mixed separators'],
    ['4200000000000091|', '4200 0000 0000 0091|', 'paste of bare digits'],
    ['  4111 1111 1111 1111 |', '4111 1111 1111 1111|', 'paste with surrounding spaces'],
    ['4000000000000000006|', '4000 0000 0000 0000 006|', '19-digit Visa'],
    ['378282246310005|', '3782 822463 10005|', 'AMEX groups 4-6-5'],
    ['37828|', '3782 8|', 'AMEX while typing'],
    ['30569309025904|', '3056 930902 5904|', 'Diners groups 4-6-4'],
    ['3782822463100051|', '3782 822463 10005|', 'digits beyond AMEX 15 are dropped'],
    ['42000000000000000912345|', '4200 0000 0000 0000 091|', 'digits beyond 19 are dropped'],
    ['4242 424|4242', '4242 424|4 242', 'delete inside a group keeps the caret'],
    ['4242 4242 |', '4242 4242|', 'deleting the first digit of a group removes the space'],
    ['4242 49|242', '4242 49|24 2', 'insert inside a group'],
    ['42421| 4242', '4242 1|424 2', 'insert just before a space moves past it'],
    ['|4242 4242', '|4242 4242', 'caret at the start stays there'],
    ['42|42 4242', '42|42 4242', 'caret moved without editing'],
    ['4a2|', '42|', 'a letter is dropped, the caret follows the digits'],
    ['abc|', '|', 'nothing but letters'],
    ['4242 |', '4242|', 'trailing space'],
    ['4242 1234|5678', '4242 1234| 5678', 'paste into the middle keeps the caret after the paste'],
  ];
  for (const [typed, shown, why] of cases) {
    it(`${why}: "${typed}" -> "${shown}"`, () => {
      const caret = typed.indexOf('|');
      const result = formatNumber(typed.replace('|', ''), caret);
      assert.equal(
        `${result.value.slice(0, result.caret)}|${result.value.slice(result.caret)}`,
        shown,
      );
    });
  }
});
