// The screenshot suite's layout check (test/visual/layout.ts) on boxes laid out by hand: what
// it calls crowded, and what it lets be.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Box, crowded } from '../../visual/layout.ts';

const box = (name: string, left: number, top: number, width: number, height: number): Box => ({
  name,
  left,
  top,
  right: left + width,
  bottom: top + height,
});

describe('the layout check', () => {
  it('calls boxes 0 px apart touching (the outcome, its reason and the retry button)', () => {
    const outcome = box('outcome', 0, 0, 328, 55);
    const reason = box('reason', 0, 55, 328, 22.4);
    const retry = box('retry', 0, 77.4, 328, 46);
    assert.deepEqual(crowded([outcome, reason, retry]), [
      'outcome touches reason',
      'reason touches retry',
    ]);
  });

  it('calls boxes less than half a pixel apart touching, side by side too', () => {
    assert.deepEqual(crowded([box('a', 0, 0, 100, 20), box('b', 100.3, 0, 100, 20)]), [
      'a touches b',
    ]);
  });

  it('calls boxes that share area overlapping, whichever comes first', () => {
    assert.deepEqual(crowded([box('label', 0, 0, 100, 20), box('input', 0, 10, 100, 40)]), [
      'label overlaps input',
    ]);
    assert.deepEqual(crowded([box('input', 0, 10, 100, 40), box('label', 0, 0, 100, 20)]), [
      'input overlaps label',
    ]);
  });

  it('lets boxes a pixel or more apart be, corners included', () => {
    assert.deepEqual(crowded([box('label', 0, 0, 100, 20), box('input', 0, 21, 100, 40)]), []);
    assert.deepEqual(crowded([box('expiry', 0, 0, 100, 40), box('cvv', 114, 0, 100, 40)]), []);
    // Diagonal neighbours whose edges line up in one direction only are apart.
    assert.deepEqual(crowded([box('a', 0, 0, 100, 20), box('b', 100, 30, 100, 20)]), []);
  });

  it('lets a box sit inside another clear of its edges (a mark inside its input)', () => {
    const input = box('input', 0, 20, 328, 44);
    const mark = box('mark', 288, 32.4, 28, 19.2);
    assert.deepEqual(crowded([input, mark]), []);
  });

  it('calls a box inside another that reaches its edge touching', () => {
    const input = box('input', 0, 20, 328, 44);
    const mark = box('mark', 300, 32.4, 28, 19.2);
    assert.deepEqual(crowded([input, mark]), ['input touches mark']);
  });
});
