// One browser lookup for every runner (web-test-runner, Playwright, the
// cross-engine flows, benches). Three engines:
// - Chromium: CHROME_PATH, then Debian's /usr/bin/chromium, then Playwright's own download.
//   The test suites prefer Chromium's headless shell (headlessChromiumPath); the benches,
//   which measure what a shopper's browser does, keep the whole browser.
// - Firefox: FIREFOX_PATH, then Debian's /usr/bin/firefox-esr (driven over WebDriver BiDi).
// - WebKit: Debian's WebKitWebDriver driving WebKitGTK's MiniBrowser on a virtual
//   display (Xvfb), since MiniBrowser has no headless mode; xsettingsd plays
//   the desktop whose colour scheme and motion preference the browser follows.
// Each lookup throws one line saying how to get what is missing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

/** The engines every browser suite runs in, in the order `npm test` runs them. */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

/** How each engine is named in output. */
export const ENGINE_NAMES = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

const HOW_TO = {
  chromium:
    'No Chromium found: install one (Debian: `apt-get install -y chromium`) or set CHROME_PATH to a Chrome/Chromium binary.',
  firefox:
    'No Firefox found: install one (Debian: `apt-get install -y firefox-esr`) or set FIREFOX_PATH to a Firefox binary.',
  webkit:
    'No WebKit found: install WebKitWebDriver, MiniBrowser, Xvfb and xsettingsd (Debian: `apt-get install -y webkit2gtk-driver xvfb xsettingsd`).',
};

/**
 * The engine a runner should use: the ENGINE variable (chromium, firefox or
 * webkit), Chromium when unset. Throws on any other value.
 */
export function engineFromEnv() {
  const engine = (process.env.ENGINE ?? 'chromium').toLowerCase();
  if (!ENGINES.includes(engine)) {
    throw new Error(`ENGINE=${engine} is not one of ${ENGINES.join(', ')}.`);
  }
  return engine;
}

function playwrightOwn() {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core');
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The Chromium binary to use, or throws with one line saying how to get one. */
export function chromiumPath() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const own = playwrightOwn();
  if (own) return own;
  throw new Error(HOW_TO.chromium);
}

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium the test suites drive: CHROME_PATH when set, then Debian's
 * chromium-headless-shell, then chromiumPath().
 *
 * The headless shell is Chromium's own build for headless runs (Playwright launches its
 * equivalent by default): the same Blink and V8, at the same version as Debian's chromium,
 * without the browser's window and UI layer. On this suite it takes well under half the
 * CPU of `chromium --headless` per page, and draws the screenshots' baselines pixel for
 * pixel alike. One difference the suites meet: it refuses a page's clipboard writes unless
 * the permission is granted, where Chrome allows them on a user gesture; the runners grant
 * it (scripts/wtr-engines.mjs, and the end-to-end test that copies).
 */
export function headlessChromiumPath() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return chromiumPath();
}

/** The Firefox binary to use, or throws with one line saying how to get one. */
export function firefoxPath() {
  const fromEnv = process.env.FIREFOX_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync('/usr/bin/firefox-esr')) return '/usr/bin/firefox-esr';
  if (existsSync('/usr/bin/firefox')) return '/usr/bin/firefox';
  throw new Error(HOW_TO.firefox);
}

const WEBKIT = {
  driver: '/usr/bin/WebKitWebDriver',
  browser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  display: '/usr/bin/Xvfb',
  settings: '/usr/bin/xsettingsd',
};

/** WebKitWebDriver, MiniBrowser, Xvfb and xsettingsd, or throws with one line saying how to get them. */
export function webkitPaths() {
  if (Object.values(WEBKIT).every((path) => existsSync(path))) return { ...WEBKIT };
  throw new Error(HOW_TO.webkit);
}

/** Checks that an engine is installed; throws its one-line how-to when not. */
export function checkEngine(engine) {
  if (engine === 'chromium') chromiumPath();
  else if (engine === 'firefox') firefoxPath();
  else webkitPaths();
}

/**
 * Flags for a closed network: no background traffic, and every host name except
 * loopback resolves to nothing, so no test can touch the network by accident.
 */
export const chromiumArgs = [
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Firefox's counterpart of chromiumArgs, as preferences: no update checks,
 * telemetry, safe-browsing lists or captive-portal probes, and every host name
 * except loopback goes nowhere. Nor does the machine's network decide whether pages are
 * online (navigator.onLine, which the widget reads when an answer is lost): Firefox follows
 * the host's link state otherwise, and a CI machine's may change mid-run; the tests that
 * need the browser offline say so themselves.
 */
export const firefoxPrefs = {
  'network.manage-offline-status': false,
  'network.dns.localDomains': 'localhost',
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
  'network.proxy.no_proxies_on': 'localhost, 127.0.0.1',
  'network.proxy.allow_hijacking_localhost': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'app.update.disabledForTesting': true,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
};

/**
 * Firefox's launch arguments for drivers that change its preferences live
 * (setFirefoxPrefs): WebDriver BiDi reaches the privileged (chrome) scope only with it.
 */
export const firefoxSystemAccessArgs = ['--remote-allow-system-access'];

/**
 * The Firefox preferences that emulate these media features (`colorScheme`: light or
 * dark, `reducedMotion`: reduce or no-preference; either may be left out): BiDi has no
 * media emulation, and the browser's own preferences do the same.
 */
export function firefoxMediaPrefs({ colorScheme, reducedMotion }) {
  const prefs = {};
  if (colorScheme) {
    prefs['layout.css.prefers-color-scheme.content-override'] = colorScheme === 'dark' ? 0 : 1;
  }
  if (reducedMotion) prefs['ui.prefersReducedMotion'] = reducedMotion === 'reduce' ? 1 : 0;
  return prefs;
}

/**
 * Sets Firefox preferences (`{ name: integer }`) live, in the privileged scope that
 * firefoxSystemAccessArgs opens: `connection` is puppeteer's BiDi connection
 * (`browser.connection`). Pages see the change asynchronously: wait for it.
 */
export async function setFirefoxPrefs(connection, prefs) {
  const tree = await connection.send('browsingContext.getTree', {
    'moz:scope': 'chrome',
    maxDepth: 0,
  });
  const context = tree.result.contexts[0]?.context;
  if (!context) throw new Error('Firefox showed no chrome window to set preferences in');
  const expression = Object.entries(prefs)
    .map(([name, value]) => `Services.prefs.setIntPref(${JSON.stringify(name)}, ${Number(value)});`)
    .join('\n');
  const evaluated = await connection.send('script.evaluate', {
    expression,
    target: { context },
    awaitPromise: false,
  });
  if (evaluated.result.type !== 'success') {
    throw new Error(`setting Firefox preferences failed: ${JSON.stringify(evaluated.result)}`);
  }
}

/** The capabilities that make WebKitWebDriver start MiniBrowser. */
export function webkitCapabilities() {
  return {
    browserName: 'MiniBrowser',
    // WebKitWebDriver speaks classic WebDriver only: a BiDi request fails the session.
    'wdio:enforceWebDriverClassic': true,
    'webkitgtk:browserOptions': { binary: webkitPaths().browser, args: ['--automation'] },
  };
}

/** An XSETTINGS file: the GTK settings WebKitGTK reads its colour scheme and motion preference from. */
function xsettings({ colorScheme, reducedMotion }) {
  // WebKitGTK reports prefers-color-scheme: dark for a theme whose name ends in -dark,
  // and prefers-reduced-motion: reduce when GTK animations are off.
  const theme = colorScheme === 'dark' ? 'Adwaita-dark' : 'Adwaita';
  return `Net/ThemeName "${theme}"\nGtk/EnableAnimations ${reducedMotion === 'reduce' ? 0 : 1}\n`;
}

/**
 * Starts WebKitWebDriver on a free loopback port inside its own virtual
 * display, beside an XSETTINGS daemon that owns that display's GTK settings.
 * Resolves once the driver answers its status route, with:
 * - port: the driver's port;
 * - emulateMedia({ colorScheme, reducedMotion }): changes what the browser's
 *   pages see as the user's preferences, live (MiniBrowser has no emulation of
 *   its own; it follows GTK like any desktop application);
 * - stop(): ends the driver, the display, the daemon and any browser they started.
 */
export async function startWebKitDriver() {
  const { driver, display, settings } = webkitPaths();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'webkit-driver-'));
  const conf = join(dir, 'xsettings');
  const pidFile = join(dir, 'xsettingsd.pid');
  const media = { colorScheme: 'light', reducedMotion: 'no-preference' };
  writeFileSync(conf, xsettings(media));
  // Xvfb takes the first free display number itself (-displayfd: it claims the number's lock
  // file before using it, and says which it took once it is ready), so WebKit suites can start
  // side by side; the same screen as xvfb-run's default.
  const script = [
    'mkfifo "$1"',
    '"$2" -displayfd 3 -nolisten tcp -screen 0 1280x1024x24 3>"$1" &',
    'read -r n < "$1"',
    'export DISPLAY=":$n"',
    '"$3" -c "$4" >/dev/null 2>&1 & echo $! > "$5"',
    'exec "$6" --port="$7" --host=127.0.0.1',
  ].join('\n');
  const args = [join(dir, 'display'), display, settings, conf, pidFile, driver, String(port)];
  // Its own process group, so stop() ends Xvfb, the daemon, the driver and MiniBrowser at once.
  const child = spawn('sh', ['-c', script, 'sh', ...args], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const emulateMedia = (wanted) => {
    for (const key of ['colorScheme', 'reducedMotion']) {
      if (wanted[key] != null) media[key] = wanted[key];
    }
    writeFileSync(conf, xsettings(media));
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`WebKitWebDriver exited with ${child.exitCode}: ${stderr.trim()}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`);
      if (response.ok && existsSync(pidFile)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `WebKitWebDriver did not answer on port ${port} within 20 s: ${stderr.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, emulateMedia, stop };
}
