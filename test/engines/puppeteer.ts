/**
 * The Driver over puppeteer-core: Chromium through CDP, Firefox ESR through
 * WebDriver BiDi (Playwright cannot drive a stock Firefox).
 */
import puppeteer, {
  type Browser,
  type CDPSession,
  type ElementHandle,
  type Frame,
  type Page,
} from 'puppeteer-core';
import {
  chromiumArgs,
  firefoxMediaPrefs,
  firefoxPath,
  firefoxPrefs,
  firefoxSystemAccessArgs,
  headlessChromiumPath,
  setFirefoxPrefs,
  // @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
} from '../../scripts/browser.mjs';
import { scaled } from '../shared/until.ts';
import {
  COLOR_SCHEME,
  type ColorScheme,
  type Driver,
  FIND,
  FORCED_COLORS,
  type Key,
  type Name,
  nameArg,
  waitFor,
} from './driver.ts';

/** The part of puppeteer's BiDi connection this driver sends commands through. */
interface BidiConnection {
  send(method: string, params: object, timeoutMs?: number): Promise<unknown>;
}

export class PuppeteerDriver implements Driver {
  /** The frame inFrame aims at while it runs. */
  private frame: Frame | undefined;

  readonly engine: 'chromium' | 'firefox';
  private readonly browser: Browser;
  private readonly page: Page;
  /** What the console said since said() last asked. */
  private heard: string[] = [];

  private constructor(engine: 'chromium' | 'firefox', browser: Browser, page: Page) {
    this.engine = engine;
    this.browser = browser;
    this.page = page;
    // Every frame's, the 3DS challenge's included, and the browser's own (CDP's log entries).
    page.on('console', (message) => {
      const type = message.type();
      if (type === 'error' || type === 'warn') {
        this.heard.push(`${type}: ${message.text()} (${message.location().url ?? page.url()})`);
      }
    });
    page.on('pageerror', (error) => {
      this.heard.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async said(): Promise<string[]> {
    const said = this.heard;
    this.heard = [];
    return said;
  }

  static async launch(engine: 'chromium' | 'firefox'): Promise<PuppeteerDriver> {
    const browser =
      engine === 'firefox'
        ? await puppeteer.launch({
            browser: 'firefox',
            executablePath: firefoxPath() as string,
            headless: true,
            extraPrefsFirefox: firefoxPrefs as Record<string, unknown>,
            // setColorScheme changes preferences live, in the privileged scope this opens.
            args: firefoxSystemAccessArgs as string[],
          })
        : await puppeteer.launch({
            executablePath: headlessChromiumPath() as string,
            headless: true,
            // Playwright adds --no-sandbox itself when run as root; puppeteer does not.
            args: [
              ...(chromiumArgs as string[]),
              ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
            ],
          });
    const page = await browser.newPage();
    // Puppeteer's own 30 s for a navigation or a wait, scaled like every other deadline.
    page.setDefaultTimeout(scaled(30_000));
    return new PuppeteerDriver(engine, browser, page);
  }

  private get context(): Frame {
    return this.frame ?? this.page.mainFrame();
  }

  async goto(url: string): Promise<void> {
    if (this.engine === 'chromium') {
      await this.page.goto(url);
      return;
    }
    // Firefox: BiDi's own navigate, which answers once the page has loaded. puppeteer's goto
    // waits for the navigation to be announced to it, and after Back restored a page from the
    // back-forward cache it never was (Firefox starts that navigation but sends no load for it,
    // and puppeteer takes the next one for part of it): goto from that page hung until its
    // timeout.
    const allowed = scaled(30_000);
    await this.connection
      .send('browsingContext.navigate', { context: this.contextId, url, wait: 'complete' }, allowed)
      .catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(`Firefox did not load ${url} within ${allowed} ms: ${why}`);
      });
  }

  /** The page's browsing context, as BiDi names it (puppeteer's frame id, not in its types). */
  private get contextId(): string {
    return (this.page.mainFrame() as unknown as { _id: string })._id;
  }

  /** puppeteer's WebDriver BiDi connection to Firefox (not part of its public types). */
  private get connection(): BidiConnection {
    return (this.browser as unknown as { connection: BidiConnection }).connection;
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  async history(to: 'back' | 'forward'): Promise<void> {
    // From the page, after this script has answered (a navigation under a script still
    // running would cut its answer off).
    await this.run(`setTimeout(() => history.${to}());`);
  }

  async clearCookies(): Promise<void> {
    await this.browser.deleteCookie(...(await this.browser.cookies()));
  }

  async cookie(name: string): Promise<string | undefined> {
    return (await this.browser.cookies()).find((cookie) => cookie.name === name)?.value;
  }

  async run<T>(body: string, ...args: unknown[]): Promise<T> {
    // A string is evaluated as the page's own script would be, so nothing crosses
    // from this process but JSON.
    const source = `(async function () {\n${body}\n}).apply(null, ${JSON.stringify(args)})`;
    return (await this.context.evaluate(source)) as T;
  }

  private async find(kind: 'field' | 'control' | 'frame', name: Name): Promise<ElementHandle> {
    return waitFor(`${kind} ${String(name)}`, async () => {
      const source = `(function () {\n${FIND}\n}).apply(null, ${JSON.stringify([kind, nameArg(name)])})`;
      const handle = await this.context.evaluateHandle(source);
      const element = handle.asElement();
      if (!element) await handle.dispose();
      return element as ElementHandle | null;
    });
  }

  async fill(label: Name, text: string): Promise<void> {
    const field = await this.find('field', label);
    await field.type(text);
    await field.dispose();
  }

  async click(name: Name): Promise<void> {
    const control = await this.find('control', name);
    await control.click();
    await control.dispose();
  }

  async press(key: Key): Promise<void> {
    // Puppeteer names the space bar ' ' over WebDriver BiDi ('Space' throws "Unknown key" in
    // Firefox); over CDP both names are the same key.
    await this.page.keyboard.press(key === 'Space' ? ' ' : key);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async inFrame<T>(steps: () => Promise<T>): Promise<T> {
    const iframe = await this.find('frame', '');
    const frame = await iframe.contentFrame();
    await iframe.dispose();
    if (!frame) throw new Error('the iframe has no frame');
    const outer = this.frame;
    this.frame = frame;
    try {
      return await steps();
    } finally {
      this.frame = outer;
    }
  }

  async setViewport(width: number, height: number): Promise<void> {
    await this.page.setViewport({ width, height });
  }

  async setColorScheme(scheme: ColorScheme): Promise<void> {
    if (this.engine === 'firefox') {
      // BiDi has no media emulation: Firefox's own preference does the same.
      await setFirefoxPrefs(this.connection, firefoxMediaPrefs({ colorScheme: scheme }));
    } else {
      await this.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    }
    await waitFor(`prefers-color-scheme: ${scheme}`, async () => {
      return (await this.run<ColorScheme>(COLOR_SCHEME)) === scheme;
    });
  }

  async workerIdleTimeout(ms: number): Promise<boolean> {
    if (this.engine !== 'firefox') return false;
    await setFirefoxPrefs(this.connection, {
      'dom.serviceWorkers.idle_timeout': ms,
    });
    return true;
  }

  async reloadPastWorker(): Promise<boolean> {
    if (this.engine !== 'chromium') return false;
    await this.page.setBypassServiceWorker(true);
    try {
      await this.page.reload();
    } finally {
      await this.page.setBypassServiceWorker(false);
    }
    return true;
  }

  readonly forcesColors = true;

  async setForcedColors(active: boolean): Promise<void> {
    if (this.engine === 'firefox') {
      // Colours and backgrounds: "override the colours of the page" always (2), or only
      // under a high contrast theme (0, the default): forced-colors follows it.
      await setFirefoxPrefs(this.connection, {
        'browser.display.document_color_use': active ? 2 : 0,
      });
    } else {
      // Puppeteer's emulateMediaFeatures takes no forced-colors. One call sets every emulated
      // feature of the page at once, so the colour scheme is set again with it.
      this.session ??= await this.page.createCDPSession();
      const scheme = await this.run<ColorScheme>(COLOR_SCHEME);
      await this.session.send('Emulation.setEmulatedMedia', {
        features: [
          { name: 'prefers-color-scheme', value: scheme },
          { name: 'forced-colors', value: active ? 'active' : '' },
        ],
      });
    }
    await waitFor(`forced-colors: ${active ? 'active' : 'none'}`, async () => {
      return (await this.run<boolean>(FORCED_COLORS)) === active;
    });
  }

  /** A DevTools session of the page's own, for what puppeteer does not emulate. */
  private session: CDPSession | undefined;

  async screenshot(selector: string): Promise<Uint8Array> {
    const element = await waitFor(selector, () => this.context.$(selector));
    try {
      return await element.screenshot({ type: 'png' });
    } finally {
      await element.dispose();
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
