import { expiryInFuture } from '../shared/expiry.ts';
import { digitsOnly } from '../shared/luhn.ts';
import type { Formatted } from './types.ts';

/** Cards are issued for at most this many years ahead; a later year is a typo. */
const MAX_YEARS_AHEAD = 20;

interface Reading {
  month: string;
  year: string;
  /** Whether the month may be a single digit: a separator followed it, or it is 2-9. */
  short: boolean;
}

/**
 * What the expiry check answers while the user types: "12/2" may still become valid, "13/2"
 * never; `expired`: a whole month and year before this one (an expired card's printed date).
 * (The number, the code and the ZIP code are checked as a whole only: `isCardNumber`, `isCvv`,
 * `isZip`; the widget checks a field once it is left, or on Pay.)
 */
interface ExpiryCheck {
  isValid: boolean;
  isPotentiallyValid: boolean;
  month?: string;
  year?: string;
  expired?: boolean;
}

/**
 * The ways to read what the user typed as month and year, most likely first. A separator
 * ("1/25", "1 25", "12-2030") says where the month ends. Without one, a leading 2-9 is a whole
 * month ("527" is 05/27), a leading 0 takes two digits, and a leading 1 is read both ways:
 * "1227" is 12/27, "127" can only be 1/27, "122" may still become 12/2x.
 */
function readings(value: string): Reading[] {
  const text = value.trim();
  const separated = /^(\d{1,2})[\s/.-]+(\d*)$/.exec(text);
  if (separated) return [{ month: separated[1]!, year: separated[2]!, short: true }];
  if (!/^\d*$/.test(text)) return [];
  const long = { month: text.slice(0, 2), year: text.slice(2), short: false };
  const short = { month: text.slice(0, 1), year: text.slice(1), short: true };
  if (text[0]! > '1') return [short];
  return text[0] === '1' && text.length > 1 ? [long, short] : [long];
}

function check({ month, year, short }: Reading, now: Date): ExpiryCheck {
  const m = +month;
  const monthComplete = month.length === 2 || (month.length === 1 && short);
  if (!monthComplete) return { isValid: false, isPotentiallyValid: /^[01]?$/.test(month) };
  if (m < 1 || m > 12 || year.length > 4) return { isValid: false, isPotentiallyValid: false };
  // Each year a card may run to (this one to MAX_YEARS_AHEAD ahead) whose `m` has not ended
  // (src/shared/expiry.ts): typed as YYYY or YY, it is the card's; starting as typed ("2",
  // "20", "202"), it may still become it.
  let isPotentiallyValid = false;
  const current = now.getUTCFullYear();
  for (let y = current; y <= current + MAX_YEARS_AHEAD; y++) {
    const full = `${y}`;
    const yy = full.slice(2);
    if (!expiryInFuture(m, full, now)) continue;
    if (year === full || year === yy) {
      return { isValid: true, isPotentiallyValid: true, month: month.padStart(2, '0'), year: full };
    }
    isPotentiallyValid ||= full.startsWith(year) || yy.startsWith(year);
  }
  // A whole date before this month is what an expired card has printed on it.
  const expired = (year.length === 2 || year.length === 4) && !expiryInFuture(m, year, now);
  return { isValid: false, isPotentiallyValid, expired };
}

/** The first reading that is valid, else the first that may still become valid. */
function best(value: string, now: Date): [Reading, ExpiryCheck] | undefined {
  const checked = readings(value).map((r) => [r, check(r, now)] as [Reading, ExpiryCheck]);
  return (
    checked.find(([, c]) => c.isValid) ??
    checked.find(([, c]) => c.isPotentiallyValid) ??
    checked[0]
  );
}

/**
 * Checks an expiry date typed as MM/YY, MM/YYYY or M/YY, with or without the slash (a space,
 * dash or dot also separate). Rejects past months (`expired`, in UTC as the sandbox reads them)
 * and years more than 20 ahead. A valid date yields the provider's `expiry_month` as "MM" and
 * `expiry_year` as "YYYY" (the provider takes YY or YYYY; four digits cannot be misread).
 */
export function checkExpiry(value: string, now: Date = new Date()): ExpiryCheck {
  return best(value, now)?.[1] ?? { isValid: false, isPotentiallyValid: false };
}

/**
 * Formats an expiry as "MM / YY" (or "MM / YYYY" when four year digits are typed). A month
 * that can only be one digit gets its leading zero ("4" -> "04", "1/" -> "01", "127" ->
 * "01 / 27"). The " / " appears only once a year digit exists: a separator shown ahead of the
 * year would come back after every backspace and trap the caret. The caret stays after the
 * digit it followed. `now` picks between readings of a leading 1, as checkExpiry does.
 */
export function formatExpiry(value: string, caret: number, now: Date = new Date()): Formatted {
  const digits = digitsOnly(value);
  const first = /\d+/.exec(value);
  // Any separator after a one- or two-digit month is read as "the month ends here".
  const separated = !!first && first[0].length <= 2 && /\D/.test(value.slice(first.index));
  const reading = best(separated ? `${first[0]}/${digits.slice(first[0].length)}` : digits, now);
  let month = reading?.[0].month ?? '';
  const year = digits.slice(month.length, month.length + 4);
  let before = digitsOnly(value.slice(0, caret)).length;
  if (month.length === 1 && month !== '0' && reading?.[0].short) {
    month = `0${month}`;
    if (before > 0) before++;
  }
  before = Math.min(before, month.length + year.length);
  return {
    value: year ? `${month} / ${year}` : month,
    caret: before <= month.length ? before : before + 3,
  };
}
