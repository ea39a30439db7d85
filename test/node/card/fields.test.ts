import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CardNetwork, isCvv, isZip } from '../../../src/card/index.ts';

describe('isCvv', () => {
  // [value, network, isValid]: exactly the network's length, digits only
  const cases: [string, CardNetwork, boolean][] = [
    ['123', 'VISA', true],
    ['123', 'MASTERCARD', true],
    ['123', 'UNKNOWN', true],
    ['123', 'CUP', true],
    ['1234', 'AMEX', true],
    ['123', 'AMEX', false],
    ['1234', 'VISA', false],
    ['12', 'VISA', false],
    ['', 'VISA', false],
    ['', 'AMEX', false],
    ['12a', 'VISA', false],
    ['12 3', 'VISA', false],
    [' 123 ', 'ELO', true],
    ['12345', 'AMEX', false],
  ];
  for (const [value, network, isValid] of cases) {
    it(`"${value}" for ${network}: ${isValid ? 'valid' : 'not valid'}`, () => {
      assert.equal(isCvv(value, network), isValid);
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
