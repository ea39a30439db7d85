/**
 * An element with its attributes and children, so the runners build the few
 * nodes they show in one expression each (and the bundle carries one
 * createElement/setAttribute loop instead of one per attribute).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}
