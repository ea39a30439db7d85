// One list of payment methods per side, and the sides agree: the widget offers (and knows how
// to pay with) exactly the methods the schemas let the handler send and the sandbox
// simulates, in the same order. A method added to one side only would be offered and then
// refused, or accepted and never drawn.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SANDBOX_METHODS } from '../../../src/sandbox/methods/index.ts';
import { PAYMENT_METHOD_IDS } from '../../../src/schemas/index.ts';
import { METHOD_IDS } from '../../../src/widget/methods/index.ts';
import { PAYING } from '../../../src/widget/methods/pay.ts';

/** What one list has that another has not, or their orders differing; empty when they agree. */
export function disagreements(lists: Readonly<Record<string, readonly string[]>>): string[] {
  const [[firstName, first] = ['', []], ...rest] = Object.entries(lists);
  const found: string[] = [];
  for (const [name, list] of rest) {
    const before = found.length;
    for (const m of list) if (!first.includes(m)) found.push(`${m}: in ${name}, not ${firstName}`);
    for (const m of first) if (!list.includes(m)) found.push(`${m}: in ${firstName}, not ${name}`);
    if (found.length === before && list.join() !== first.join()) {
      found.push(`${name} lists ${list.join(', ')}; ${firstName} ${first.join(', ')}`);
    }
  }
  return found;
}

test('the widget, its pay part, the schemas and the sandbox list the same payment methods', () => {
  assert.deepEqual(
    disagreements({
      'the schemas (src/schemas/methods/)': PAYMENT_METHOD_IDS,
      'the widget (src/widget/methods/index.ts)': METHOD_IDS,
      "the widget's pay part (src/widget/methods/pay.ts)": Object.keys(PAYING),
      'the sandbox (src/sandbox/methods/index.ts)': Object.keys(SANDBOX_METHODS),
    }),
    [],
  );
});

test('a method on one side only, or the sides in another order, is named', () => {
  assert.deepEqual(disagreements({ a: ['card', 'ideal'], b: ['card', 'ideal', 'pix'] }), [
    'pix: in b, not a',
  ]);
  assert.deepEqual(disagreements({ a: ['card', 'ideal'], b: ['card'] }), ['ideal: in a, not b']);
  assert.deepEqual(disagreements({ a: ['card', 'ideal'], b: ['ideal', 'card'] }), [
    'b lists ideal, card; a card, ideal',
  ]);
});
