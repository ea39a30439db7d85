/**
 * The Driver over classic WebDriver (webdriverio): WebKitGTK's MiniBrowser
 * through WebKitWebDriver, on a virtual display this driver starts and stops.
 */
import { remote } from 'webdriverio';
// @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
import { startWebKitDriver, webkitCapabilities } from '../../scripts/browser.mjs';
import { type Driver, FIND, type Key, type Name, nameArg, waitFor } from './driver.ts';

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

interface WebKitDriverServer {
  port: number;
  stop(): Promise<void>;
}

export class WebKitDriver implements Driver {
  readonly engine = 'webkit';

  private constructor(
    private readonly browser: Browser,
    private readonly server: WebKitDriverServer,
  ) {}

  static async launch(): Promise<WebKitDriver> {
    const server = (await startWebKitDriver()) as WebKitDriverServer;
    try {
      const browser = await remote({
        hostname: '127.0.0.1',
        port: server.port,
        logLevel: 'error',
        capabilities: webkitCapabilities(),
      });
      return new WebKitDriver(browser, server);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  async goto(url: string): Promise<void> {
    await this.browser.navigateTo(url);
  }

  async url(): Promise<string> {
    return this.browser.getUrl();
  }

  // WebDriver deletes the cookies of the current page's site: the flows' shop, once a flow
  // has opened it (before the first, there are none).
  async clearCookies(): Promise<void> {
    await this.browser.deleteCookies();
  }

  async run<T>(body: string, ...args: unknown[]): Promise<T> {
    // Execute Script awaits a promise the script returns.
    const script = `return (async function () {\n${body}\n}).apply(null, arguments);`;
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

  async inChallengeFrame<T>(steps: () => Promise<T>): Promise<T> {
    const iframe = await this.find('frame', '');
    await this.browser.switchFrame(this.browser.$(iframe));
    try {
      return await steps();
    } finally {
      await this.browser.switchFrame(null);
    }
  }

  async close(): Promise<void> {
    try {
      await this.browser.deleteSession();
    } finally {
      await this.server.stop();
    }
  }
}
