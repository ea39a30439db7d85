// The sandbox's documented test cards (the card table of the sandbox's README): the only
// numbers the static site takes. Any other Luhn-valid number would pay in the sandbox; the site
// refuses it, in the card form and in its worker, so that no one types a real card into a page
// that only simulates a payment.

export const TEST_CARDS: readonly string[] = [
  // Paid, no challenge.
  '4200000000000091',
  '4200000000000026',
  '5200000000000007',
  '5200000000000056',
  // A 3DS challenge.
  '4200000000000042',
  '4200000000000067',
  '5200000000000015',
  '5200000000000049',
  // A 3DS technical error.
  '4012001037461114',
  '5434580000000006',
];

const CARDS: ReadonlySet<string> = new Set(TEST_CARDS);

/** Whether `number` (digits, spaces and dashes as typed) is one of the test cards. */
export function isTestCard(number: string): boolean {
  return CARDS.has(number.replace(/[\s-]/g, ''));
}

/** What the card form and the worker say of any other number. */
export const NOT_A_TEST_CARD =
  'Use one of the sandbox’s test cards, such as 4200 0000 0000 0091: this page only simulates a payment';
