import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CardNetwork, checkCvv, isZip } from '../../../src/card/index.ts';

describe('checkCvv', () => {
  // [value, network, isValid, isPotentiallyValid]
  const cases: [string, CardNetwork, boolean, boolean][] = [
    ['123', 'VISA', true, true],
    ['123', 'MASTERCARD', true, true],
    ['123', 'UNKNOWN', true, true],
    ['123', 'CUP', true, true],
    ['1234', 'AMEX', true, true],
    ['123', 'AMEX', false, true],
    ['1234', 'VISA', false, false],
    ['12', 'VISA', false, true],
    ['', 'VISA', false, true],
    ['', 'AMEX', false, true],
    ['12a', 'VISA', false, false],
    ['12 3', 'VISA', false, false],
    [' 123 ', 'ELO', true, true],
    ['12345', 'AMEX', false, false],
  ];
  for (const [value, network, isValid, isPotentiallyValid] of cases) {
    it(`"${value}" for ${network}: ${isValid ? 'valid' : isPotentiallyValid ? 'not yet' : 'never'}`, () => {
      assert.deepEqual(checkCvv(value, network), { isValid, isPotentiallyValid });
    });
  }
});

describe('isZip', () => {
  // [value, whether it is a ZIP code]
  const cases: [string, boolean][] = [
    ['12345', true],
    ['90210', true],
    ['12345-6789', true],
    ['12345 6789', true],
    ['123456789', true],
    [' 12345 ', true],
    ['', false],
    ['1234', false],
    ['12345-', false],
    ['12345-67', false],
    ['1234567', false],
    ['12345-67890', false],
    ['1234567890', false],
    ['1234a', false],
    ['SW1A 1AA', false],
    ['12-345', false],
  ];
  for (const [value, valid] of cases) {
    it(`"${value}": ${valid ? 'a ZIP code' : 'not one'}`, () => {
      assert.equal(isZip(value), valid);
    });
  }
});
