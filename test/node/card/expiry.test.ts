import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkExpiry, formatExpiry } from '../../../src/card/index.ts';
import { expiryInFuture } from '../../../src/sandbox/simulation/cards.ts';

// 15 May 2026 (UTC): May 2026 is still good, April 2026 is past, 2046 is the last year accepted.
const NOW = new Date(Date.UTC(2026, 4, 15));

describe('checkExpiry (today 15 May 2026)', () => {
  // [input, month, year] for dates the provider gets as expiry_month / expiry_year.
  const valid: [string, string, string][] = [
    ['12/26', '12', '2026'],
    ['05/26', '05', '2026'],
    ['06/26', '06', '2026'],
    ['01/27', '01', '2027'],
    ['1/27', '01', '2027'],
    ['5/27', '05', '2027'],
    ['05/2027', '05', '2027'],
    ['5/2027', '05', '2027'],
    ['0527', '05', '2027'],
    ['052027', '05', '2027'],
    ['527', '05', '2027'],
    ['127', '01', '2027'],
    ['12027', '01', '2027'],
    ['1227', '12', '2027'],
    ['12 / 27', '12', '2027'],
    ['12 27', '12', '2027'],
    ['12-2027', '12', '2027'],
    ['12.27', '12', '2027'],
    [' 09/30 ', '09', '2030'],
    ['12/46', '12', '2046'],
    ['12/2046', '12', '2046'],
    ['01 / 2046', '01', '2046'],
  ];
  for (const [input, month, year] of valid) {
    it(`"${input}" is valid: ${month}/${year}`, () => {
      assert.deepEqual(checkExpiry(input, NOW), {
        isValid: true,
        isPotentiallyValid: true,
        month,
        year,
      });
    });
  }

  // [input, isPotentiallyValid, expired, why]: expired is a whole month and year already past,
  // what an expired card has printed on it (the shopper reads "This card has expired").
  const invalid: [string, boolean, boolean, string][] = [
    ['', true, false, 'empty field'],
    ['0', true, false, 'month being typed'],
    ['1', true, false, 'month being typed'],
    ['12', true, false, 'year not typed yet'],
    ['12/', true, false, 'separator typed, year not yet'],
    ['1/', true, false, 'one-digit month and separator'],
    ['12/2', true, false, 'year being typed'],
    ['12 / 20', true, true, 'December 2020, or still 2026-2029 as YYYY'],
    ['12/202', true, false, 'three year digits on the way to YYYY'],
    ['13', true, false, 'reads as 1/3x, which may still be 2030-2039'],
    ['122', true, false, 'may become 12/2x'],
    ['04/26', false, true, 'last month'],
    ['12/25', false, true, 'last year'],
    ['04/2026', false, true, 'last month, four-digit year'],
    ['0426', false, true, 'last month, no separator'],
    ['4/26', false, true, 'last month, one-digit month'],
    ['01/2000', false, true, 'long ago'],
    ['125', false, false, 'January 2025 and 12/5x are both out of reach'],
    ['12/47', false, false, 'more than 20 years ahead'],
    ['12/2047', false, false, 'more than 20 years ahead, four-digit year'],
    ['12/1', false, false, 'no year in range starts with 1'],
    ['00/27', false, false, 'month 00'],
    ['0/27', false, false, 'month 0'],
    ['13/27', false, false, 'month 13'],
    ['13/25', false, false, 'month 13 of a past year is no date'],
    ['00', false, false, 'month 00 while typing'],
    ['12/20271', false, false, 'five-digit year'],
    ['12/27/1', false, false, 'a third part'],
    ['1227x', false, false, 'a letter'],
    ['/1227', false, false, 'starts with a separator'],
    ['abc', false, false, 'letters only'],
  ];
  for (const [input, isPotentiallyValid, expired, why] of invalid) {
    it(`"${input}" is not valid (${why})`, () => {
      const result = checkExpiry(input, NOW);
      assert.deepEqual(
        { ...result, expired: result.expired ?? false },
        { isValid: false, isPotentiallyValid, expired },
      );
    });
  }

  it('takes the current month up to its last day, in UTC', () => {
    assert.equal(checkExpiry('12/26', new Date(Date.UTC(2026, 11, 31, 23, 59))).isValid, true);
    assert.equal(checkExpiry('12/26', new Date(Date.UTC(2027, 0, 1))).isValid, false);
    assert.equal(checkExpiry('12/26', new Date(Date.UTC(2027, 0, 1))).expired, true);
    // 30 November 2026, 23:30 in New York is 1 December in UTC: the sandbox refuses November.
    const newYork = checkExpiry('11/26', new Date('2026-11-30T23:30:00-05:00'));
    assert.deepEqual([newYork.isValid, newYork.expired], [false, true]);
    // 1 December 2026, 00:30 in Berlin is still 30 November in UTC: the sandbox takes it.
    assert.equal(checkExpiry('11/26', new Date('2026-12-01T00:30:00+01:00')).isValid, true);
  });

  it('reads YY in the century where it is not past', () => {
    assert.deepEqual(checkExpiry('01/05', new Date(Date.UTC(2095, 5, 1))), {
      isValid: true,
      isPotentiallyValid: true,
      month: '01',
      year: '2105',
    });
    assert.equal(checkExpiry('01/90', new Date(Date.UTC(2095, 5, 1))).expired, true);
  });

  it('takes every date in the window that the sandbox takes, and calls expired every one it refuses as past', () => {
    // Around the turn of each month of a year, at its first and last minute (UTC).
    for (let month = 0; month < 12; month++) {
      for (const now of [
        new Date(Date.UTC(2026, month, 1)),
        new Date(Date.UTC(2026, month + 1, 1) - 60_000),
      ]) {
        for (let year = 2024; year <= 2028; year++) {
          for (let m = 1; m <= 12; m++) {
            const mm = `${m}`.padStart(2, '0');
            const good = expiryInFuture(mm, `${year}`, now);
            for (const typed of [`${mm}/${year}`, `${mm}/${`${year}`.slice(2)}`]) {
              const at = `${typed} at ${now.toISOString()}`;
              const result = checkExpiry(typed, now);
              assert.equal(result.isValid, good, at);
              assert.equal(result.expired ?? false, !good, at);
            }
          }
        }
      }
    }
  });
});

describe('formatExpiry (today 15 May 2026)', () => {
  // A "|" marks the caret: [what the input holds after the user's edit, what it shows next, why].
  const cases: [string, string, string][] = [
    ['1|', '1|', 'a 1 may start 10, 11 or 12'],
    ['4|', '04|', 'a 4 can only be April'],
    ['12|', '12|', 'no separator before the year exists'],
    ['12/|', '12|', 'a typed separator is not kept ahead of the year'],
    ['1/|', '01|', 'a separator after one digit completes the month'],
    ['122|', '12 / 2|', 'third digit starts the year'],
    ['127|', '01 / 27|', '12/7x is out of range, so this is 1/27'],
    ['13|', '01 / 3|', 'there is no month 13'],
    ['1227|', '12 / 27|', 'four digits'],
    ['122027|', '12 / 2027|', 'four-digit year'],
    ['12/2030|', '12 / 2030|', 'paste with a slash'],
    ['12 / 20301|', '12 / 2030|', 'a fifth year digit is dropped'],
    ['04 / |', '04|', 'backspace over the last year digit drops the separator'],
    ['04 /|25', '04| / 25', 'backspace into the separator keeps the caret after the month'],
    ['0|4 / 25', '0|4 / 25', 'caret moved into the month'],
    ['04 / 2|5', '04 / 2|5', 'caret moved into the year'],
    ['|04 / 25', '|04 / 25', 'caret at the start'],
    ['0 / 25|', '0 / 25|', 'a lone 0 is not padded to 00'],
    ['ab|', '|', 'letters only'],
  ];
  for (const [typed, shown, why] of cases) {
    it(`${why}: "${typed}" -> "${shown}"`, () => {
      const caret = typed.indexOf('|');
      const result = formatExpiry(typed.replace('|', ''), caret, NOW);
      assert.equal(
        `${result.value.slice(0, result.caret)}|${result.value.slice(result.caret)}`,
        shown,
      );
    });
  }

  it('every formatted valid date checks as the same date', () => {
    for (const input of ['527', '127', '1227', '12/2030', '1 28']) {
      const { value } = formatExpiry(input, input.length, NOW);
      assert.deepEqual(checkExpiry(value, NOW), checkExpiry(input, NOW), input);
    }
  });
});
