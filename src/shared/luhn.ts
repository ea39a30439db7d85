// Digits and the Luhn check, shared by the widget's card fields (src/card) and the sandbox's
// card rules. No imports.

/** Keeps only the ASCII digits: spaces, dashes and anything else a user pastes fall away. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * The Luhn (mod 10) check every major network puts in its last digit; it catches any single
 * mistyped digit and most swapped neighbours. Anything but a non-empty run of digits fails.
 */
export function luhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const d = +digits[i]! * (double ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}
