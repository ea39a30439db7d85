/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

// Amounts, in the currency's minor unit: the sandbox's pages write them the same way.
export { formatMoney } from '../../shared/money.ts';
