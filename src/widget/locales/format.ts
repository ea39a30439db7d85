/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

/** An amount in the locale's way of writing money; '' when there is no amount. */
export function formatMoney(locale: string, amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number') return '';
  const options: Intl.NumberFormatOptions =
    typeof currency === 'string' && currency ? { style: 'currency', currency } : {};
  try {
    return new Intl.NumberFormat(locale, options).format(amount);
  } catch {
    // A malformed locale or currency must not break the form.
    return new Intl.NumberFormat('en-GB', options).format(amount);
  }
}
