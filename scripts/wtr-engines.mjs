// web-test-runner in three engines: a launcher per engine, the two commands the
// suite needs that the stock ones cannot do outside Chromium (media emulation and
// the viewport), and a one-line summary that names the engine.
import { relative } from 'node:path';
import { ChromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteer from 'puppeteer-core';
import {
  chromiumArgs,
  ENGINE_NAMES,
  firefoxMediaPrefs,
  firefoxPath,
  firefoxPrefs,
  firefoxSystemAccessArgs,
  headlessChromiumPath,
  setFirefoxPrefs,
  startWebKitDriver,
  webkitCapabilities,
} from './browser.mjs';
import { firstLines } from './test-counts.mjs';

/** What the page reports for the media features a test may emulate. */
const MEDIA_STATE = `({
  colorScheme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'reduce' : 'no-preference',
})`;

/**
 * Waits until `read()` (the page's own view) shows what was asked: preferences
 * set outside the page reach it asynchronously. Bounded; throws with what it saw.
 */
async function settle(what, wanted, read, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await read();
    const missing = Object.entries(wanted).filter(
      ([key, value]) => value != null && seen[key] !== value,
    );
    if (missing.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: asked ${JSON.stringify(wanted)}, the page still sees ${JSON.stringify(seen)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** prefers-color-scheme: light when the emulation is lifted ('no-preference'), as in a default desktop. */
function normalized({ colorScheme, reducedMotion, media }) {
  if (media != null) throw new Error('emulating a media type (print, screen) is not wired up here');
  return {
    colorScheme: colorScheme === 'no-preference' ? 'light' : colorScheme,
    reducedMotion,
  };
}

/**
 * Firefox ESR through puppeteer-core over WebDriver BiDi (Playwright cannot
 * drive a stock Firefox). This is the launcher @web/test-runner-puppeteer wraps,
 * given puppeteer-core: the full puppeteer package would download a Chrome on
 * install. BiDi has no media emulation; the browser's own preferences do the
 * same, set through the privileged (chrome) scope that
 * `--remote-allow-system-access` opens to this runner.
 */
class FirefoxLauncher extends ChromeLauncher {
  constructor() {
    super(
      {
        browser: 'firefox',
        executablePath: firefoxPath(),
        headless: true,
        extraPrefsFirefox: firefoxPrefs,
        args: firefoxSystemAccessArgs,
      },
      ({ browser }) => browser.defaultBrowserContext(),
      ({ context }) => context.newPage(),
      puppeteer,
    );
  }

  async emulateMedia(sessionId, payload) {
    const wanted = normalized(payload);
    const page = this.getPage(sessionId);
    await setFirefoxPrefs(page.browser().connection, firefoxMediaPrefs(wanted));
    await settle('Firefox media', wanted, () => page.evaluate(MEDIA_STATE));
  }

  async setViewport(sessionId, viewport) {
    await this.getPage(sessionId).setViewport(viewport);
    return viewport;
  }
}

/** WebKitGTK's MiniBrowser through WebKitWebDriver, which this launcher starts and stops itself. */
class WebKitLauncher extends WebdriverLauncher {
  constructor() {
    super({
      hostname: '127.0.0.1',
      port: 0,
      logLevel: 'error',
      // The runner knows a test page is ready when it reports over its socket. A
      // navigation that waits for the load event can still be pending when the
      // page's tests are done (a frame a test left loading); the end of the
      // session then aborts it, an uncaught error that fails a green run.
      capabilities: { ...webkitCapabilities(), pageLoadStrategy: 'none' },
    });
  }

  async initialize(config, testFiles) {
    this.webkitDriver = await startWebKitDriver();
    this.options.port = this.webkitDriver.port;
    await super.initialize(config, testFiles);
    this.name = ENGINE_NAMES.webkit;
  }

  async stop() {
    await super.stop();
    await this.webkitDriver?.stop();
  }

  /**
   * The stock webdriver launcher sends every key of `sendKeys({ type })` as one
   * chord (all down, then all up), so a repeated digit is typed once: "4200"
   * arrives as "420". A shopper types one key after another; so does this.
   * `sendKeys({ press: 'Shift+Tab' })` stays a chord.
   */
  async sendKeys(sessionId, keys) {
    if (keys.length === 1 && /.\+./.test(keys[0])) {
      return super.sendKeys(sessionId, keys[0].split('+'));
    }
    for (const key of keys) await super.sendKeys(sessionId, [key]);
  }

  async emulateMedia(_sessionId, payload) {
    const wanted = normalized(payload);
    const read = () => this.driver.execute(`return ${MEDIA_STATE}`);
    const before = await read();
    this.webkitDriver.emulateMedia(wanted);
    await settle('WebKit media', wanted, read);
    const now = await read();
    if (now.reducedMotion !== before.reducedMotion) {
      // WebKitGTK updates matchMedia on a live motion-preference change but does not
      // restyle: rules already matched keep their old answer until the next
      // appearance change (a page loaded after the change is styled right). A
      // colour-scheme round trip is such a change, so styles catch up as on a fresh load.
      const other = now.colorScheme === 'dark' ? 'light' : 'dark';
      this.webkitDriver.emulateMedia({ colorScheme: other });
      await settle('WebKit media', { colorScheme: other }, read);
      this.webkitDriver.emulateMedia({ colorScheme: now.colorScheme });
      await settle('WebKit media', { colorScheme: now.colorScheme }, read);
    }
  }

  /**
   * WebDriver sizes the window; the page's viewport is that minus MiniBrowser's
   * toolbar. The window is never narrower than the toolbar (447 px here), so the
   * page may get less than it asked for: resolves with what it got.
   */
  async setViewport(_sessionId, { width, height }) {
    const read = async () => {
      const [w, h, outerWidth, outerHeight] = await this.driver.execute(
        'return [innerWidth, innerHeight, outerWidth, outerHeight]',
      );
      return { width: w, height: h, toolbarX: outerWidth - w, toolbarY: outerHeight - h };
    };
    const { toolbarX, toolbarY } = await read();
    const rect = await this.driver.setWindowRect(null, null, width + toolbarX, height + toolbarY);
    const got = { width: rect.width - toolbarX, height: rect.height - toolbarY };
    await settle('WebKit viewport', got, read);
    return got;
  }
}

/** The launcher of one engine. */
export function launcherFor(engine) {
  if (engine === 'firefox') return new FirefoxLauncher();
  if (engine === 'webkit') return new WebKitLauncher();
  return playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath: headlessChromiumPath(), args: chromiumArgs },
    // Chrome lets a page write to the clipboard on a user gesture; the headless shell only
    // with the permission, granted here as Chrome would.
    createBrowserContext: ({ browser }) => browser.newContext({ permissions: ['clipboard-write'] }),
  });
}

/**
 * `engine-emulate-media` and `engine-set-viewport`: the stock emulateMedia
 * needs CDP or Playwright, and the stock setViewport has no webdriver branch.
 * The suite calls these through test/browser/commands.ts.
 */
export function engineCommands() {
  return {
    name: 'engine-commands',
    async executeCommand({ command, payload, session }) {
      if (command !== 'engine-emulate-media' && command !== 'engine-set-viewport') return undefined;
      const { browser } = session;
      if (browser.type === 'playwright') {
        const page = browser.getPage(session.id);
        if (command === 'engine-emulate-media') await page.emulateMedia(payload);
        else await page.setViewportSize(payload);
        return command === 'engine-emulate-media' ? true : payload;
      }
      if (command === 'engine-emulate-media') {
        await browser.emulateMedia(session.id, payload);
        return true;
      }
      return browser.setViewport(session.id, payload);
    },
  };
}

function count(suite, totals, file, path = []) {
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else {
      totals.failed += 1;
      const name = [file, ...path, test.name].join(' › ');
      // What the error says first, on one line, as npm test's summary shows it.
      const why = firstLines((test.error?.message ?? '').split('\n'));
      totals.names.push(why ? `${name}: ${why}` : name);
    }
  }
  for (const child of suite.suites) count(child, totals, file, [...path, child.name]);
}

/**
 * Ends the run with `browser tests (Firefox): 168 passed, 0 failed, 0 skipped`, then a
 * `failed: file › suite › test: the error's first line` line for each test that failed; a
 * test file that failed to load counts as one failure.
 */
export function engineSummary(engine) {
  let line = '';
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0, names: [] };
      for (const session of sessions) {
        const file = relative(process.cwd(), session.testFile);
        if (session.testResults) count(session.testResults, totals, file);
        if (session.errors?.length) {
          totals.failed += 1;
          const why = session.errors[0]?.message?.split('\n')[0];
          totals.names.push(`${file} (did not load)${why ? `: ${why}` : ''}`);
        }
      }
      line = `browser tests (${ENGINE_NAMES[engine]}): ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
      // Read back by npm test (scripts/test-counts.mjs), which names them in its summary.
      for (const name of totals.names) line += `\nfailed: ${name}`;
    },
    stop() {
      if (line) console.log(`\n${line}`);
    },
  };
}
