import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CardNetwork, checkCvv, checkZip } from '../../../src/card/index.ts';

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

describe('checkZip', () => {
  // [value, isValid, isPotentiallyValid]
  const cases: [string, boolean, boolean][] = [
    ['12345', true, true],
    ['90210', true, true],
    ['12345-6789', true, true],
    ['12345 6789', true, true],
    ['123456789', true, true],
    [' 12345 ', true, true],
    ['', false, true],
    ['1234', false, true],
    ['12345-', false, true],
    ['12345-67', false, true],
    ['1234567', false, true],
    ['12345-67890', false, false],
    ['1234567890', false, false],
    ['1234a', false, false],
    ['SW1A 1AA', false, false],
    ['12-345', false, false],
  ];
  for (const [value, isValid, isPotentiallyValid] of cases) {
    it(`"${value}": ${isValid ? 'valid' : isPotentiallyValid ? 'not yet' : 'never'}`, () => {
      assert.deepEqual(checkZip(value), { isValid, isPotentiallyValid });
    });
  }
});
