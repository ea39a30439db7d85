/**
 * The layout check, on what the page script (layout-page.ts) read of a state's boxes:
 *
 * - crowded(): no two of the widget's visible boxes overlap or touch. A box is what a shopper
 *   sees as one thing: a control (input, select, button, link, iframe, a network mark), an
 *   element holding only text (a label, a message, a title), an element that paints a border
 *   or a background, and the text beside a control inside one element (a radio's name). A box
 *   inside another (a mark inside its input, a radio inside its bordered choice) is fine when
 *   it keeps clear of the outer box's edges; anything else that meets, edge to edge included,
 *   is a defect a shopper sees as cramped or broken.
 * - leaving(): no text leaves the box that holds it: a word wider than its label, a line under
 *   a button's edge, an element whose text scrolls sideways (scrollWidth over clientWidth).
 * - unlike(): whether a state's layout at one width is its layout at another, stretched
 *   sideways: the same boxes at the same heights, side by side the same way, reaching the same
 *   edges. Where it holds, a shot at the second width would show nothing the first does not
 *   but wider boxes (the suite checks it at every width a state is not drawn at).
 */

/** A rectangle, in CSS pixels of its frame's viewport. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Box extends Rect {
  /** How the failure names it: its tag and part or class, and its first words. */
  name: string;
}

/** A box that holds text, and where its text is drawn. */
export interface TextBox extends Box {
  /** The rectangles of its lines of text (each text node's range, line by line). */
  lines: Rect[];
  /** The box's scrollWidth and clientWidth (0 for an inline box, which has none). */
  scrollWidth: number;
  clientWidth: number;
}

/** What the page script read at one width: the root's box (the widget's, or the page's), and what is in it. */
export interface Layout {
  width: number;
  root: Rect;
  boxes: Box[];
  texts: TextBox[];
  /** Whether the page itself scrolls sideways (a frame's document). */
  pageScrollsSideways?: boolean;
}

/** Closer than this (in CSS pixels) is touching: no screen shows a gap under half a pixel. */
const APART_PX = 0.5;

/**
 * How far a line of text may reach past its box before it leaves it: a glyph's advance is
 * laid out in sixty-fourths of a pixel, a box's edge in whole device pixels.
 */
const OUT_PX = 1;

/** Whether `inner` lies inside `outer`, at least `margin` from each of its edges. */
function inside(inner: Rect, outer: Rect, margin = APART_PX): boolean {
  return (
    inner.left - outer.left >= margin &&
    inner.top - outer.top >= margin &&
    outer.right - inner.right >= margin &&
    outer.bottom - inner.bottom >= margin
  );
}

/**
 * Every pair of boxes that overlap or touch, as `A touches B` or `A overlaps B`, in the
 * order the boxes come (document order).
 */
export function crowded(boxes: readonly Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i] as Box;
      const b = boxes[j] as Box;
      const apartX = Math.max(b.left - a.right, a.left - b.right);
      const apartY = Math.max(b.top - a.bottom, a.top - b.bottom);
      if (apartX >= APART_PX || apartY >= APART_PX) continue;
      if (inside(a, b) || inside(b, a)) continue;
      // Edge to edge, or inside the other up to its edge: touching; sharing area: overlapping.
      const edge =
        apartX > -APART_PX ||
        apartY > -APART_PX ||
        inside(a, b, -APART_PX) ||
        inside(b, a, -APART_PX);
      const meet = edge ? 'touches' : 'overlaps';
      found.push(`${a.name} ${meet} ${b.name}`);
    }
  }
  return found;
}

const px = (n: number) => `${Math.round(n * 10) / 10} px`;

/**
 * Every box whose text leaves it: `NAME: text leaves its box by N px to the right` (the
 * farthest line, on the side it leaves by most), or `NAME: text scrolls sideways (scrollWidth
 * W > clientWidth C)`.
 */
export function leaving(texts: readonly TextBox[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    let worst = { by: OUT_PX, side: '' };
    for (const line of text.lines) {
      const sides: [number, string][] = [
        [text.left - line.left, 'left'],
        [line.right - text.right, 'right'],
        [text.top - line.top, 'top'],
        [line.bottom - text.bottom, 'bottom'],
      ];
      for (const [by, side] of sides) if (by > worst.by) worst = { by, side };
    }
    if (worst.side) {
      found.push(`${text.name}: text leaves its box by ${px(worst.by)} to the ${worst.side}`);
    } else if (text.clientWidth > 0 && text.scrollWidth > text.clientWidth) {
      found.push(
        `${text.name}: text scrolls sideways (scrollWidth ${text.scrollWidth} > clientWidth ${text.clientWidth})`,
      );
    }
  }
  return found;
}

const near = (a: number, b: number) => Math.abs(a - b) <= APART_PX;

/** Where `b` is beside `a`: to its right, to its left, or neither (one above the other). */
function beside(a: Rect, b: Rect): 'right' | 'left' | 'neither' {
  if (b.left - a.right > -APART_PX) return 'right';
  if (a.left - b.right > -APART_PX) return 'left';
  return 'neither';
}

/**
 * How `wide` differs from `narrow` stretched sideways, as sentences (none: it is that): the
 * same boxes in the same order, each at the same height from the root's top and as tall (no
 * line of text wraps otherwise, nothing moves to another row), each pair side by side the same
 * way, and each box that reaches the root's left or right edge at one width reaching it at the
 * other (no column stops growing and leaves a margin: a max-width, a centred box).
 */
export function unlike(narrow: Layout, wide: Layout): string[] {
  const at = `${narrow.width} and ${wide.width} px`;
  const names = (layout: Layout) => layout.boxes.map((box) => box.name).join(', ');
  if (names(narrow) !== names(wide)) {
    return [`other boxes at ${at}: ${names(narrow)} / ${names(wide)}`];
  }
  const found: string[] = [];
  narrow.boxes.forEach((a, i) => {
    const b = wide.boxes[i] as Box;
    const top = [a.top - narrow.root.top, b.top - wide.root.top] as const;
    if (!near(...top) || !near(a.bottom - a.top, b.bottom - b.top)) {
      found.push(
        `${a.name} moves or grows up or down between ${at}: ${px(top[0])} + ${px(a.bottom - a.top)}, then ${px(top[1])} + ${px(b.bottom - b.top)}`,
      );
    }
    for (const side of ['left', 'right'] as const) {
      if (near(a[side], narrow.root[side]) !== near(b[side], wide.root[side])) {
        found.push(`${a.name} reaches the ${side} edge at one of ${at} only`);
      }
    }
    for (let j = i + 1; j < narrow.boxes.length; j++) {
      const c = narrow.boxes[j] as Box;
      const d = wide.boxes[j] as Box;
      if (beside(a, c) !== beside(b, d)) {
        found.push(`${a.name} and ${c.name} sit otherwise side by side between ${at}`);
      }
    }
  });
  return found;
}
