// Beside the widget on each shop page of the site: a panel that changes the widget's options
// live (language, theme, payment methods, how 3-D Secure shows, the amount), and the code
// that makes the page as it now is (code.ts), each with a copy button. Nothing reloads the
// page: an attribute or a style changes on the element, or, where the widget reads an option
// only when it loads its checkout (the methods, the order), a new element takes its place,
// as a framework re-rendering the page would do.
import { DARK_THEME, pageCode, serverCode, termsOf } from './code.ts';

const LOCALES = [
  ['', 'English (the page’s)'],
  ['de-DE', 'Deutsch (de-DE)'],
  ['fr-FR', 'Français (fr-FR)'],
  ['nl-NL', 'Nederlands (nl-NL)'],
  ['pl-PL', 'Polski (pl-PL)'],
  ['pt-BR', 'Português (pt-BR)'],
  ['es-ES', 'Español (es-ES)'],
] as const;

const METHODS = [
  ['card', 'Card'],
  ['ideal', 'iDEAL'],
  ['bancontact', 'Bancontact'],
  ['blik', 'BLIK'],
  ['boleto', 'Boleto'],
] as const;

const CHALLENGES = [
  ['auto', 'As the checkout allows (auto)'],
  ['iframe', 'Inside the widget (iframe)'],
  ['redirect', 'As a full page (redirect)'],
] as const;

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

/** What the site's worker answers for a price: the page's `order` and the price it shows. */
interface Priced {
  order: string;
  price: string;
}

/** The site's root: its stylesheet sits there, whatever path the site is served under. */
function siteRoot(): URL {
  const sheet = document.querySelector<HTMLLinkElement>('link[href$="site.css"]');
  return new URL('./', sheet?.href ?? location.href);
}

/** An element with attributes and children (no markup parsed: the pages may enforce Trusted Types). */
function h(
  tag: string,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

function select(name: string, options: readonly (readonly [string, string])[], value: string) {
  const element = h(
    'select',
    { id: `playground-${name}`, name },
    ...options.map(([v, text]) => h('option', { value: v }, text)),
  ) as HTMLSelectElement;
  element.value = value;
  return element;
}

function field(label: string, control: HTMLElement): HTMLElement {
  return h('div', { class: 'playground-field' }, h('label', { for: control.id }, label), control);
}

/** A block of code with its heading and its copy button, which says what it did. */
function codeBlock(id: string, title: string, status: HTMLElement): [HTMLElement, HTMLElement] {
  const code = h('code', { id });
  const copy = h('button', { type: 'button' }, `Copy ${title.toLowerCase()}`);
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.textContent ?? '');
      status.textContent = `${title} copied.`;
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text selected to copy by hand.
      getSelection()?.selectAllChildren(code);
      status.textContent = `${title} selected: copy it with your keyboard.`;
    }
  });
  return [
    h('div', { class: 'playground-code' }, h('h3', {}, title), h('pre', {}, code), copy),
    code,
  ];
}

/** Builds the panel beside `widget` (the shop page's) and keeps its code up to date. */
export function playground(first: HTMLElement): void {
  let widget = first;
  const product = widget.closest('section') ?? widget.parentElement;
  if (!product) return;
  const status = h('p', { role: 'status', class: 'playground-status' });
  const [pageBlock, page] = codeBlock('playground-page-code', 'The page’s code', status);
  const [serverBlock, server] = codeBlock('playground-server-code', 'The server’s code', status);
  const description = document.getElementById('product-name')?.textContent?.trim() ?? 'Order';
  const show = () => {
    page.textContent = pageCode(widget);
    server.textContent = serverCode(termsOf(new URL(location.href), description));
  };

  const locale = select('locale', LOCALES, widget.getAttribute('locale') ?? '');
  locale.addEventListener('change', () => {
    for (const name of ['locale', 'lang']) {
      if (locale.value) widget.setAttribute(name, locale.value);
      else widget.removeAttribute(name);
    }
    show();
  });

  const theme = select('theme', [['light', 'Light'], ['dark', 'Dark'] as const] as const, 'light');
  theme.addEventListener('change', () => {
    for (const [name, value] of Object.entries(DARK_THEME)) {
      if (theme.value === 'dark') widget.style.setProperty(name, value);
      else widget.style.removeProperty(name);
    }
    show();
  });

  const named = (widget.getAttribute('payment-methods') ?? '').split(/\s+/).filter(Boolean);
  const boxes = METHODS.map(([id, label]) => {
    const box = h('input', { type: 'checkbox', id: `playground-method-${id}`, value: id });
    (box as HTMLInputElement).checked = named.length === 0 || named.includes(id);
    box.addEventListener('change', () => {
      const chosen = boxes.filter(([b]) => b.checked).map(([b]) => b.value);
      // The widget reads its methods when it loads its checkout: a new element does.
      replace((next) => next.setAttribute('payment-methods', chosen.join(' ')));
    });
    return [box as HTMLInputElement, h('label', { for: box.id }, label)] as const;
  });
  const methods = h(
    'fieldset',
    { class: 'playground-methods' },
    h('legend', {}, 'Payment methods'),
    ...boxes.flatMap(([box, label]) => [h('span', {}, box, label)]),
  );

  const challenge = select('challenge', CHALLENGES, widget.getAttribute('challenge') ?? 'auto');
  challenge.addEventListener('change', () => {
    widget.setAttribute('challenge', challenge.value);
    show();
  });

  const amount = h('input', {
    id: 'playground-amount',
    name: 'amount',
    inputmode: 'decimal',
    autocomplete: 'off',
    value: termsOf(new URL(location.href), '').amount,
  }) as HTMLInputElement;
  const apply = h('button', { type: 'submit' }, 'Apply amount');
  const form = h(
    'form',
    { class: 'playground-options', 'aria-label': 'The widget’s options' },
    field('Language', locale),
    field('Theme', theme),
    methods,
    field('3-D Secure challenge', challenge),
    h(
      'div',
      { class: 'playground-field' },
      h('label', { for: amount.id }, 'Amount'),
      amount,
      apply,
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void reprice(amount.value.trim());
  });

  /** A new element like the widget, changed by `change`, in its place. */
  function replace(change: (next: HTMLElement) => void): void {
    const next = widget.cloneNode(false) as HTMLElement;
    change(next);
    widget.replaceWith(next);
    widget = next;
    show();
  }

  /** The page priced at `value`: the shop signs the new order; the widget loads its checkout. */
  async function reprice(value: string): Promise<void> {
    if (!AMOUNT.test(value) || Number(value) <= 0) {
      status.textContent = 'The amount must look like 12.50.';
      return;
    }
    const url = new URL(location.href);
    url.searchParams.set('amount', value);
    // The site's worker prices it as the shop's page would (its order signed, its price): JSON,
    // so nothing here parses markup (the page's policy enforces Trusted Types).
    const priced = new URL(`playground/order${url.search}`, siteRoot());
    const answer = await fetch(priced).catch(() => undefined);
    const terms = answer?.ok ? ((await answer.json()) as Partial<Priced>) : {};
    if (typeof terms.order !== 'string' || typeof terms.price !== 'string') {
      status.textContent = 'The shop could not price that amount.';
      return;
    }
    history.replaceState(history.state, '', url);
    const price = document.querySelector('.price');
    if (price) price.textContent = terms.price;
    widget.setAttribute('order', terms.order);
    show();
    status.textContent = `Priced at ${value}.`;
  }

  product.after(
    h(
      'section',
      { class: 'playground', 'aria-labelledby': 'playground-title' },
      h('h2', { id: 'playground-title' }, 'Change it live, and the code for it'),
      form,
      status,
      pageBlock,
      serverBlock,
    ),
  );
  show();
}
