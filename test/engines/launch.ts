// Starts the engine a run asks for, with the driver of its protocol. Apart from driver.ts,
// which each driver imports for the interface they implement.
// @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
import { engineFromEnv } from '../../scripts/browser.mjs';
import type { Driver, Engine } from './driver.ts';

/** Starts the engine named by ENGINE (Chromium when unset). */
export async function launch(): Promise<Driver> {
  const engine = engineFromEnv() as Engine;
  if (engine === 'webkit') {
    const { WebKitDriver } = await import('./webdriver.ts');
    return WebKitDriver.launch();
  }
  const { PuppeteerDriver } = await import('./puppeteer.ts');
  return PuppeteerDriver.launch(engine);
}
