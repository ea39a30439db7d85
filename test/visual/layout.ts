/**
 * The layout check: no two of the widget's visible boxes overlap or touch. A box is what a
 * shopper sees as one thing: a control (input, select, button, link, iframe, a network mark),
 * an element holding only text (a label, a message, a title), an element that paints a border
 * or a background, and the text beside a control inside one element (a radio's name). A box
 * inside another (a mark inside its input, a radio inside its bordered choice) is fine when
 * it keeps clear of the outer box's edges; anything else that meets, edge to edge included, is
 * a defect a shopper sees as cramped or broken.
 */

export interface Box {
  /** How the failure names it: its tag and part or class, and its first words. */
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Closer than this (in CSS pixels) is touching: no screen shows a gap under half a pixel. */
const APART_PX = 0.5;

/** Whether `inner` lies inside `outer`, at least `margin` from each of its edges. */
function inside(inner: Box, outer: Box, margin = APART_PX): boolean {
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

/**
 * Page script: the visible boxes of the first `payment-widget`'s shadow root, in document
 * order, as Box objects. Hidden things are left out: `display: none`, `visibility: hidden`,
 * zero opacity, a clip that hides an element for screen readers only, an empty box.
 */
export const BOXES = `
const CONTROLS = new Set(['input', 'select', 'textarea', 'button', 'a', 'iframe', 'svg', 'img']);
const host = document.querySelector('payment-widget');
const boxes = [];
const words = (text) => (text || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
const nameOf = (el, text) => {
  const part = el.getAttribute('part');
  const cls = el.getAttribute('class');
  const what = part ? '[part=' + part + ']' : cls ? '.' + cls.split(' ')[0] : '';
  const label = el.localName === 'input' ? el.type : words(text);
  return el.localName + what + (label ? ' "' + label + '"' : '');
};
const add = (name, rect) => {
  if (rect.width < 0.5 || rect.height < 0.5) return;
  boxes.push({ name, left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom });
};
const shown = (el) => {
  if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  return getComputedStyle(el).clipPath === 'none';
};
const paints = (style) =>
  ['Top', 'Right', 'Bottom', 'Left'].some(
    (side) => style['border' + side + 'Style'] !== 'none' && parseFloat(style['border' + side + 'Width']) > 0,
  ) ||
  (style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent') ||
  style.backgroundImage !== 'none';
const visit = (el) => {
  if (!shown(el)) return;
  if (CONTROLS.has(el.localName)) {
    add(nameOf(el, el.localName === 'svg' ? el.textContent : el.innerText || el.value), el.getBoundingClientRect());
    return;
  }
  const children = [...el.children].filter((child) => child.localName !== 'style');
  if (children.length === 0 || paints(getComputedStyle(el))) {
    add(nameOf(el, el.textContent), el.getBoundingClientRect());
  }
  if (children.length > 0) {
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      add(nameOf(el, node.data) + ' text', range.getBoundingClientRect());
    }
  }
  for (const child of children) visit(child);
};
for (const el of host.shadowRoot.children) {
  if (el.localName !== 'style') visit(el);
}
return boxes;
`;
