// When a card has expired: the one rule, read in UTC, for the widget (which tells the shopper
// "This card has expired") and the sandbox (which refuses the card). No imports.

/**
 * Whether a card printed with `month` (1-12) and `year` (YYYY, or YY as 20YY) is still good at
 * `now`: through the last day of its month, in UTC.
 */
export function expiryInFuture(month: number | string, year: string, now = new Date()): boolean {
  const full = year.length === 2 ? 2000 + +year : +year;
  return full * 12 + +month > now.getUTCFullYear() * 12 + now.getUTCMonth();
}
