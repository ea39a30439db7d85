// One browser lookup for every runner (web-test-runner, Playwright, benches):
// CHROME_PATH, then Debian's /usr/bin/chromium, then Playwright's own download.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const HOW_TO =
  'No Chromium found: install one (Debian: `apt-get install -y chromium`) or set CHROME_PATH to a Chrome/Chromium binary.';

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
  throw new Error(HOW_TO);
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
