/**
 * The Driver over classic WebDriver (webdriverio): WebKitGTK's MiniBrowser
 * through WebKitWebDriver, on a virtual display this driver starts and stops.
 */
import { PNG } from 'pngjs';
import { remote } from 'webdriverio';
// @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
import { startWebKitDriver, webkitCapabilities } from '../../scripts/browser.mjs';
import { scaled } from '../shared/until.ts';
import {
  COLOR_SCHEME,
  type ColorScheme,
  type Driver,
  FIND,
  type Key,
  type Name,
  nameArg,
  waitFor,
} from './driver.ts';

/**
 * How long WebKitWebDriver waits for a page to load after a navigation command (goto, Back,
 * Forward), puppeteer's 30 s scaled as in puppeteer.ts; WebDriver's default is 300 s.
 */
const PAGE_LOAD_MS = scaled(30_000);

/** The W3C WebDriver code points of the keys flows press. */
const KEYS: Record<Key, string> = {
  Tab: '\uE004',
  Enter: '\uE007',
  Space: '\uE00D',
  ArrowRight: '\uE014',
};

/** The key under which WebDriver returns an element from a script. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
type ElementReference = { [ELEMENT]: string };

type Browser = Awaited<ReturnType<typeof remote>>;

/** Where an element is in the top-level view, and how wide the view is, in CSS pixels. */
interface ViewBox {
  left: number;
  top: number;
  width: number;
  height: number;
  viewWidth: number;
}

/** Page script: the ViewBox of the first element `arguments[0]` matches, or null. */
const VIEW_BOX = `
const el = document.querySelector(arguments[0]);
if (!el) return null;
const rect = el.getBoundingClientRect();
let left = rect.left;
let top = rect.top;
for (let w = window; w !== w.top; w = w.parent) {
  const frame = w.frameElement;
  const at = frame.getBoundingClientRect();
  left += at.left + frame.clientLeft;
  top += at.top + frame.clientTop;
}
return { left, top, width: rect.width, height: rect.height, viewWidth: window.top.innerWidth };
`;

/** Where a page keeps what its console said, across its reloads and its origin's pages. */
const SAID = 'engines:said';

/**
 * Page script: WebKitWebDriver gives no console (classic WebDriver has none, and MiniBrowser
 * under automation writes none out), so each page the driver enters records its own errors
 * and warnings, and its uncaught errors, from then on, in its tab's sessionStorage: they
 * outlive a reload or a navigation to another page of the shop. The engine's own messages
 * are not seen, nor what a page says before the driver first runs a script in it.
 */
const RECORD = `
if (!window.__enginesSaid) {
  window.__enginesSaid = true;
  const keep = (line) => {
    try {
      const all = JSON.parse(sessionStorage.getItem(${JSON.stringify(SAID)}) || '[]');
      all.push(line + ' (' + location.href + ')');
      sessionStorage.setItem(${JSON.stringify(SAID)}, JSON.stringify(all));
    } catch {}
  };
  for (const type of ['error', 'warn']) {
    const original = console[type];
    console[type] = function (...args) {
      keep(type + ': ' + args.map(String).join(' '));
      return original.apply(this, args);
    };
  }
  addEventListener('error', (event) => keep('uncaught: ' + event.message));
  addEventListener('unhandledrejection', (event) => keep('uncaught: ' + String(event.reason)));
}
`;

interface WebKitDriverServer {
  port: number;
  emulateMedia(media: { colorScheme?: ColorScheme }): void;
  stop(): Promise<void>;
}

export class WebKitDriver implements Driver {
  readonly engine = 'webkit';

  private readonly browser: Browser;
  private readonly server: WebKitDriverServer;

  private constructor(browser: Browser, server: WebKitDriverServer) {
    this.browser = browser;
    this.server = server;
  }

  static async launch(): Promise<WebKitDriver> {
    const server = (await startWebKitDriver()) as WebKitDriverServer;
    try {
      const browser = await remote({
        hostname: '127.0.0.1',
        port: server.port,
        logLevel: 'error',
        // Past the driver's own page load timeout, so that the driver answers a navigation
        // that never ends, not the client giving up on it and sending it again.
        connectionRetryTimeout: PAGE_LOAD_MS + scaled(30_000),
        capabilities: webkitCapabilities(),
      });
      await browser.setTimeout({ pageLoad: PAGE_LOAD_MS });
      return new WebKitDriver(browser, server);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  async goto(url: string): Promise<void> {
    await this.browser.navigateTo(url);
    await this.run('');
  }

  async url(): Promise<string> {
    return this.browser.getUrl();
  }

  async history(to: 'back' | 'forward'): Promise<void> {
    // WebDriver's own commands, not the page's history: a script sent while WebKit brings
    // back a page it kept (Forward to a page with a payment out) went unanswered until the
    // client gave up 120 s later, in 4 of 12 runs here; the commands wait for that page.
    // Sent once, not through webdriverio, which sends a command again after an error: a
    // Back that loads no page in the top-level view (its entry a frame's, the frame gone
    // since) is answered only by the page load timeout, and then went back again, four
    // times in all (8 minutes with WebDriver's default timeout).
    const response = await fetch(
      `http://127.0.0.1:${this.server.port}/session/${this.browser.sessionId}/${to}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    const { value } = (await response.json()) as { value: { error?: string } };
    if (response.ok) return;
    // The session stays stuck (every later command waits out the same timeout): a new one.
    await this.browser.reloadSession();
    await this.browser.setTimeout({ pageLoad: PAGE_LOAD_MS });
    throw new Error(
      `WebKit's ${to === 'back' ? 'Back' : 'Forward'} loaded no page within ${PAGE_LOAD_MS} ms (WebKitWebDriver: ${value.error}): the entry it went to is not the page's (a frame's, the frame gone), or there is none; the driver has a new session`,
    );
  }

  // WebDriver deletes the cookies of the current page's site: the flows' shop, once a flow
  // has opened it (before the first, there are none).
  // WebKit answers the command before its network process has dropped them: a page loaded
  // right after could still send the last shopper's basket (and show their paid order), so
  // this waits until the browser itself lists none.
  async clearCookies(): Promise<void> {
    await this.browser.deleteCookies();
    await waitFor(
      'the cookies deleted',
      async () => (await this.browser.getCookies()).length === 0,
    );
  }

  async cookie(name: string): Promise<string | undefined> {
    return (await this.browser.getCookies([name]))[0]?.value;
  }

  async said(): Promise<string[]> {
    // Before the first page (about:blank) there is no storage, and nothing was said.
    return this.run<string[]>(
      `try {
        const all = JSON.parse(sessionStorage.getItem(${JSON.stringify(SAID)}) || '[]');
        sessionStorage.removeItem(${JSON.stringify(SAID)});
        return all;
      } catch {
        return [];
      }`,
    );
  }

  async run<T>(body: string, ...args: unknown[]): Promise<T> {
    // Execute Script awaits a promise the script returns. Each page records its console
    // from the driver's first script in it (RECORD).
    const script = `${RECORD}\nreturn (async function () {\n${body}\n}).apply(null, arguments);`;
    return (await this.browser.execute(script, ...args)) as T;
  }

  private async find(kind: 'field' | 'control' | 'frame', name: Name): Promise<ElementReference> {
    return waitFor(
      `${kind} ${String(name)}`,
      () => this.browser.execute(FIND, kind, nameArg(name)) as Promise<ElementReference | null>,
    );
  }

  async fill(label: Name, text: string): Promise<void> {
    // Element Send Keys focuses the field, then types key by key.
    const field = await this.find('field', label);
    await this.browser.elementSendKeys(field[ELEMENT], text);
  }

  async click(name: Name): Promise<void> {
    const control = await this.find('control', name);
    await this.browser.elementClick(control[ELEMENT]);
  }

  async press(key: Key): Promise<void> {
    await this.keys([KEYS[key]]);
  }

  async type(text: string): Promise<void> {
    await this.keys([...text]);
  }

  /** One key after another, each pressed and released (never a chord). */
  private async keys(keys: string[]): Promise<void> {
    await this.browser.performActions([
      {
        type: 'key',
        id: 'keyboard',
        actions: keys.flatMap((value) => [
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ]),
      },
    ]);
    await this.browser.releaseActions();
  }

  async inFrame<T>(steps: () => Promise<T>): Promise<T> {
    const iframe = await this.find('frame', '');
    await this.browser.switchFrame(this.browser.$(iframe));
    try {
      return await steps();
    } finally {
      await this.browser.switchToParentFrame();
    }
  }

  /**
   * WebDriver sizes the window; the page's viewport is that minus MiniBrowser's toolbar,
   * and the window is never narrower than the toolbar (447 px here): throws when the
   * viewport cannot be had.
   */
  async setViewport(width: number, height: number): Promise<void> {
    const [innerWidth, innerHeight, outerWidth, outerHeight] = await this.run<number[]>(
      'return [top.innerWidth, top.innerHeight, top.outerWidth, top.outerHeight];',
    );
    await this.browser.setWindowRect(
      null,
      null,
      width + (outerWidth ?? 0) - (innerWidth ?? 0),
      height + (outerHeight ?? 0) - (innerHeight ?? 0),
    );
    await waitFor(`a ${width}x${height} viewport`, async () => {
      const size = await this.run<number[]>('return [top.innerWidth, top.innerHeight];');
      return size[0] === width && size[1] === height;
    });
  }

  // MiniBrowser has no emulation of its own: it follows the desktop's GTK settings, which
  // the driver's XSETTINGS daemon plays.
  /** WebKitWebDriver has no setting for it. */
  async workerIdleTimeout(): Promise<boolean> {
    return false;
  }

  async reloadPastWorker(): Promise<boolean> {
    return false;
  }

  async setColorScheme(scheme: ColorScheme): Promise<void> {
    this.server.emulateMedia({ colorScheme: scheme });
    await waitFor(`prefers-color-scheme: ${scheme}`, async () => {
      return (await this.run<ColorScheme>(COLOR_SCHEME)) === scheme;
    });
  }

  // WebKitGTK has no forced colours mode: its pages match forced-colors: none under GTK's
  // HighContrast themes too, and neither WebKitWebDriver nor MiniBrowser emulates it.
  readonly forcesColors = false;

  async setForcedColors(): Promise<void> {
    throw new Error('WebKitGTK has no forced colours mode to turn on');
  }

  // WebKitGTK's element screenshot comes back black on a virtual display (the whole view's
  // does not): the view's, cut to the element.
  async screenshot(selector: string): Promise<Uint8Array> {
    const box = await waitFor(selector, () => this.run<ViewBox | null>(VIEW_BOX, selector));
    const view = PNG.sync.read(Buffer.from(await this.browser.takeScreenshot(), 'base64'));
    const scale = view.width / box.viewWidth;
    const left = Math.round(box.left * scale);
    const top = Math.round(box.top * scale);
    const width = Math.round(box.width * scale);
    const height = Math.round(box.height * scale);
    if (left < 0 || top < 0 || left + width > view.width || top + height > view.height) {
      throw new Error(
        `${selector} reaches out of the ${box.viewWidth} px wide view: ${JSON.stringify(box)}`,
      );
    }
    const shot = new PNG({ width, height });
    PNG.bitblt(view, shot, left, top, width, height, 0, 0);
    return PNG.sync.write(shot);
  }

  async close(): Promise<void> {
    try {
      await this.browser.deleteSession();
    } finally {
      await this.server.stop();
    }
  }
}
