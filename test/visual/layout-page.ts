/**
 * Page script of the layout check (layout.ts): what the shopper sees of the first
 * `payment-widget` (`arguments[1]` 'widget': its shadow root, and every shadow root nested in
 * it), or of a whole page (`'page'`: a frame's document, such as the issuer's challenge page in
 * the widget's iframe), as a Layout: the visible boxes in document order, and each box that
 * holds text with the rectangles its lines are drawn in.
 *
 * `arguments[0]`: the widths to read it at, one after another, as the width of the frame the
 * script runs in (the suite's stand-in for a phone's or a tablet's screen); empty: as it is.
 * Resizing in the page and reading at once costs one round trip for all of them.
 *
 * Hidden things are left out: `display: none`, `visibility: hidden`, zero opacity, a clip that
 * hides an element for screen readers only, an empty box. An iframe is one box here; what is in
 * it is another document, which the suite reads from inside the frame.
 */
export const LAYOUT = `
const [widths, where] = arguments;
const CONTROLS = new Set(['input', 'select', 'textarea', 'button', 'a', 'iframe', 'svg', 'img']);
const words = (text) => (text || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
const nameOf = (el, text) => {
  const part = el.getAttribute('part');
  const cls = el.getAttribute('class');
  const what = part ? '[part=' + part + ']' : cls ? '.' + cls.split(' ')[0] : '';
  const label = el.localName === 'input' ? el.type : words(text);
  return el.localName + what + (label ? ' "' + label + '"' : '');
};
const rectOf = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
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
// The box a text is drawn in: its element, or the nearest one around it that is not inline.
const holder = (el) => {
  let at = el;
  while (at.parentElement && /^(inline|contents)$/.test(getComputedStyle(at).display)) at = at.parentElement;
  return at;
};

function read() {
  const boxes = [];
  const texts = new Map();
  const add = (name, rect) => {
    if (rect.width < 0.5 || rect.height < 0.5) return;
    boxes.push({ name, ...rectOf(rect) });
  };
  const lines = (el, node) => {
    const box = holder(el);
    let text = texts.get(box);
    if (!text) {
      text = {
        name: nameOf(box, box.textContent),
        ...rectOf(box.getBoundingClientRect()),
        lines: [],
        scrollWidth: box.scrollWidth,
        clientWidth: box.clientWidth,
      };
      texts.set(box, text);
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) text.lines.push(rectOf(r));
    return range.getBoundingClientRect();
  };
  const textNodes = (el) => [...el.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE && node.data.trim());
  const visit = (el) => {
    if (!shown(el)) return;
    if (CONTROLS.has(el.localName)) {
      add(nameOf(el, el.localName === 'svg' ? el.textContent : el.innerText || el.value), el.getBoundingClientRect());
      // The words on a button or a link stay inside it.
      if (el.localName === 'button' || el.localName === 'a') {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.data.trim() && node.parentElement && shown(node.parentElement)) lines(node.parentElement, node);
        }
      }
      return;
    }
    const children = [...el.children].filter((child) => child.localName !== 'style');
    if (children.length === 0 || paints(getComputedStyle(el))) {
      add(nameOf(el, el.textContent), el.getBoundingClientRect());
    }
    for (const node of textNodes(el)) {
      const rect = lines(el, node);
      if (children.length > 0) add(nameOf(el, node.data) + ' text', rect);
    }
    if (el.shadowRoot) for (const child of el.shadowRoot.children) if (child.localName !== 'style') visit(child);
    for (const child of children) visit(child);
  };
  let root;
  let pageScrollsSideways;
  if (where === 'widget') {
    const host = document.querySelector('payment-widget');
    root = rectOf(host.getBoundingClientRect());
    for (const el of host.shadowRoot.children) if (el.localName !== 'style') visit(el);
  } else {
    root = rectOf(document.body.getBoundingClientRect());
    for (const el of document.body.children) if (el.localName !== 'script' && el.localName !== 'style') visit(el);
    pageScrollsSideways = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  }
  return { width: innerWidth, root, boxes, texts: [...texts.values()], pageScrollsSideways };
}

if (widths.length === 0) return [read()];
const layouts = [];
for (const width of widths) {
  window.frameElement.style.width = width + 'px';
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  layouts.push(read());
}
return layouts;
`;
