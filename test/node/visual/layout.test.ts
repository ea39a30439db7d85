// The screenshot suite's layout check (test/visual/layout.ts) on boxes laid out by hand: what
// it calls crowded, and what it lets be.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Box,
  crowded,
  type Layout,
  leaving,
  type TextBox,
  unlike,
} from '../../visual/layout.ts';

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

const text = (
  name: string,
  at: Box,
  lines: Box[],
  scroll: { scrollWidth: number; clientWidth: number } = { scrollWidth: 0, clientWidth: 0 },
): TextBox => ({ ...at, name, lines, ...scroll });

describe('the text check', () => {
  it('lets text inside its box be, to a pixel past its edge', () => {
    const label = box('label', 0, 0, 137, 20);
    assert.deepEqual(leaving([text('label', label, [box('line', 0, 0, 137.8, 20)])]), []);
  });

  it('catches a word wider than its box (a German word in a narrow column)', () => {
    const label = box('label "Sicherheitscode"', 0, 0, 120, 20);
    assert.deepEqual(leaving([text(label.name, label, [box('line', 0, 0, 131.4, 20)])]), [
      'label "Sicherheitscode": text leaves its box by 11.4 px to the right',
    ]);
  });

  it('names the side a line leaves by most: a second line under the bottom of a button', () => {
    const button = box('button', 0, 0, 328, 46);
    const lines = [box('1', 20, 12, 288, 22), box('2', 40, 34, 248, 22)];
    assert.deepEqual(leaving([text('button "Pay"', button, lines)]), [
      'button "Pay": text leaves its box by 10 px to the bottom',
    ]);
  });

  it('catches text that scrolls sideways inside its box (clipped, its lines drawn inside)', () => {
    const message = box('p', 0, 0, 120, 20);
    assert.deepEqual(
      leaving([
        text('p "Zahlungsformular"', message, [box('line', 0, 0, 119, 20)], {
          scrollWidth: 152,
          clientWidth: 120,
        }),
      ]),
      ['p "Zahlungsformular": text scrolls sideways (scrollWidth 152 > clientWidth 120)'],
    );
  });
});

const layout = (width: number, boxes: Box[]): Layout => ({
  width,
  root: box('root', 16, 16, width - 32, 400),
  boxes,
  texts: [],
});

describe('the same layout, stretched', () => {
  it('holds when boxes keep their heights, their order and their edges (a mark at the end of its input, a middle choice)', () => {
    const narrow = layout(360, [
      box('input', 16, 40, 328, 44),
      box('svg', 304, 52, 24, 16),
      box('iDEAL', 100, 100, 80, 40),
    ]);
    const wide = layout(768, [
      box('input', 16, 40, 736, 44),
      box('svg', 712, 52, 24, 16),
      box('iDEAL', 260, 100, 240, 40),
    ]);
    assert.deepEqual(unlike(narrow, wide), []);
  });

  it('fails when a box moves up or down (two rows become one)', () => {
    const narrow = layout(360, [box('a', 16, 40, 150, 40), box('b', 16, 90, 150, 40)]);
    const wide = layout(768, [box('a', 16, 40, 300, 40), box('b', 326, 40, 300, 40)]);
    assert.deepEqual(unlike(narrow, wide), [
      'a and b sit otherwise side by side between 360 and 768 px',
      'b moves or grows up or down between 360 and 768 px: 74 px + 40 px, then 24 px + 40 px',
      'b reaches the left edge at one of 360 and 768 px only',
    ]);
  });

  it('fails when a box stops reaching an edge (a column with a max-width, centred)', () => {
    const narrow = layout(768, [box('challenge', 16, 40, 736, 400)]);
    const wide = layout(1280, [box('challenge', 320, 40, 640, 400)]);
    assert.deepEqual(unlike(narrow, wide), [
      'challenge reaches the left edge at one of 768 and 1280 px only',
      'challenge reaches the right edge at one of 768 and 1280 px only',
    ]);
  });

  it('fails when the boxes are others', () => {
    const narrow = layout(360, [box('p', 16, 40, 160, 20)]);
    assert.deepEqual(unlike(narrow, layout(768, [])), ['other boxes at 360 and 768 px: p / ']);
  });
});
