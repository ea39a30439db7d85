/**
 * What a payment flow does in a browser, as one small interface with one
 * implementation per automation protocol: puppeteer-core for Chromium (CDP) and
 * Firefox (WebDriver BiDi), WebDriver for WebKit. Flows are written once against
 * it. Finding things happens in the page, by what a shopper reads (a label, a
 * button's name), looking through open shadow roots.
 */

import { until } from '../shared/until.ts';

export type Engine = 'chromium' | 'firefox' | 'webkit';

export type ColorScheme = 'light' | 'dark';

/** Page script: the colour scheme the page sees. */
export const COLOR_SCHEME =
  "return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';";

/** Page script: whether the page sees `forced-colors: active`. */
export const FORCED_COLORS = "return matchMedia('(forced-colors: active)').matches;";

/** The keys flows press, by their DOM `key` names. */
export type Key = 'Tab' | 'Enter' | 'Space' | 'ArrowRight';

/** How a flow names a control: a label or a button's exact text, or a pattern of it. */
export type Name = string | RegExp;

export interface Driver {
  readonly engine: Engine;
  /** Loads a URL and waits for the load event. */
  goto(url: string): Promise<void>;
  /** The top-level page's URL. */
  url(): Promise<string>;
  /**
   * Goes one page back or forward in the top-level history, as the browser's buttons do,
   * without waiting for the page it goes to: wait for that page's own sign.
   */
  history(to: 'back' | 'forward'): Promise<void>;
  /**
   * Runs `body` (a function body; `arguments` are `args`) in the page, or in the
   * frame inside inFrame, and returns its JSON result, awaiting a returned promise.
   */
  run<T>(body: string, ...args: unknown[]): Promise<T>;
  /** Focuses the field labelled `label`, then types `text` key by key. */
  fill(label: Name, text: string): Promise<void>;
  /** Clicks the enabled button, link, radio or details' summary named `name`. */
  click(name: Name): Promise<void>;
  /** Presses and releases one key where the focus is. */
  press(key: Key): Promise<void>;
  /** Types `text` key by key where the focus is. */
  type(text: string): Promise<void>;
  /** Forgets the cookies of every site: the next page is a new shopper's (a new basket). */
  clearCookies(): Promise<void>;
  /** The value of the cookie `name` the browser keeps for the page's site, if any. */
  cookie(name: string): Promise<string | undefined>;
  /**
   * The errors and warnings the pages' consoles said since the last call (`error: text`,
   * `warn: text`, `uncaught: message`), then forgets them. Chromium's include its own
   * (a resource that failed to load, a sandbox flag); Firefox's, what pages log and throw
   * (WebDriver BiDi carries no other); WebKit's, what the shop's pages log and throw once the
   * driver has been in them (WebKitWebDriver gives no console at all: see webdriver.ts).
   */
  said(): Promise<string[]>;
  /**
   * Runs `steps` with every action above aimed inside the first iframe of the page, or of
   * the frame the driver is in already (frames nest): the widget's 3DS challenge, or the
   * frame that stands for a phone's screen in the screenshot suite.
   */
  inFrame<T>(steps: () => Promise<T>): Promise<T>;
  /** Sizes the top-level page's viewport. */
  setViewport(width: number, height: number): Promise<void>;
  /** What every page sees as the shopper's colour scheme (`prefers-color-scheme`). */
  setColorScheme(scheme: ColorScheme): Promise<void>;
  /**
   * Has the engine stop a Service Worker it deems idle after `ms` instead of its own delay;
   * false where it has no such setting. Firefox has (dom.serviceWorkers.idle_timeout, 30 s by
   * default, and it stops a worker whose only work is an open stream); Chromium and WebKit
   * kept a worker streaming to a page past a minute, seen here.
   */
  workerIdleTimeout(ms: number): Promise<boolean>;
  /**
   * Loads the page again past its Service Worker, as a shopper's hard reload (Shift with Reload)
   * does, and resolves once it has loaded; false where the driver cannot: only Chromium's
   * DevTools protocol has a page bypass its worker (WebDriver BiDi and WebDriver have no such
   * command).
   */
  reloadPastWorker(): Promise<boolean>;
  /**
   * Whether the engine can be put in a forced colours mode (Windows' high contrast) by its
   * driver: Chromium emulates it (DevTools' Emulation.setEmulatedMedia), Firefox forces the
   * page's colours by preference; WebKitGTK has no such mode to turn on.
   */
  readonly forcesColors: boolean;
  /**
   * Forced colours on or off for every page (`forced-colors: active` or `none`); throws where
   * `forcesColors` is false.
   */
  setForcedColors(active: boolean): Promise<void>;
  /**
   * A PNG of the first element `selector` matches in the page, or in the frame inside
   * inFrame, as the engine paints it (its border box, nothing of the page around it).
   */
  screenshot(selector: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** How long a flow waits for anything a shopper would wait for, on an idle machine (`until` scales it). */
export const WAIT_MS = 15_000;

/** Polls `check` until it returns something truthy; throws with `what` and the last answer. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T>,
  timeoutMs = WAIT_MS,
): Promise<NonNullable<T>> {
  let value: T | undefined;
  let last: unknown;
  const holds = async () => {
    try {
      value = await check();
      last = value;
    } catch (error) {
      // A page or frame in the middle of navigating has no context to ask yet.
      last = error instanceof Error ? error.message : error;
      return false;
    }
    return Boolean(value);
  };
  await until(() => `${what} (last: ${String(last)})`, holds, timeoutMs);
  return value as NonNullable<T>;
}

/** A Name as JSON for the page: `{ text }` or `{ source, flags }`. */
export function nameArg(name: Name): unknown {
  return typeof name === 'string' ? { text: name } : { source: name.source, flags: name.flags };
}

/**
 * Page script: the element a shopper means, or null. `arguments[0]` is the kind
 * ('field': a form control by its label; 'control': a button, link, radio or summary by
 * its name; 'frame': the first iframe), `arguments[1]` a nameArg. Only rendered,
 * enabled elements count.
 */
export const FIND = `
const [kind, name] = arguments;
const roots = [];
const collect = (root) => {
  roots.push(root);
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) collect(el.shadowRoot);
};
collect(document);
const clean = (s) => (s || '').replace(/\\s+/g, ' ').trim();
const matches = (s) => name.text !== undefined ? clean(s) === name.text : new RegExp(name.source, name.flags).test(clean(s));
const usable = (el) => el.getClientRects().length > 0 && !el.disabled;
for (const root of roots) {
  if (kind === 'frame') {
    const frame = root.querySelector('iframe');
    if (frame && usable(frame)) return frame;
  } else if (kind === 'field') {
    for (const label of root.querySelectorAll('label')) {
      const control = label.control;
      if (control && control.type !== 'radio' && matches(label.textContent) && usable(control)) return control;
    }
  } else {
    for (const el of root.querySelectorAll('button, a[href], input[type=radio], [role=button], summary')) {
      const text = el.labels && el.labels[0] ? el.labels[0].textContent : el.getAttribute('aria-label') || el.textContent;
      if (matches(text) && usable(el)) return el;
    }
  }
}
return null;
`;

/** Page script: whether FIND finds the element (an element itself does not cross as JSON). */
export const EXISTS = `return (function () {\n${FIND}\n}).apply(null, arguments) !== null;`;

/** Page script: the rendered text of the page, shadow roots included, whitespace collapsed. */
export const TEXT = `
const parts = [];
const walk = (node) => {
  if (node.nodeType === Node.TEXT_NODE) {
    const parent = node.parentElement;
    if (parent && parent.getClientRects().length > 0) parts.push(node.data);
    return;
  }
  if (node.localName === 'script' || node.localName === 'style') return;
  if (node.shadowRoot) walk(node.shadowRoot);
  for (const child of node.childNodes) walk(child);
  parts.push(' ');
};
walk(document.body);
return parts.join('').replace(/\\s+/g, ' ');
`;

/**
 * Page script: the focused control's name (its label, or its own text for
 * buttons and links), looking through shadow roots; 'iframe' when focus is in a frame.
 */
export const FOCUSED = `
let el = document.activeElement;
while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
if (!el) return '';
if (el.localName === 'iframe') return 'iframe';
const text = el.labels && el.labels[0] ? el.labels[0].textContent : el.textContent;
return (text || '').replace(/\\s+/g, ' ').trim();
`;
