// The first page of a visit: it installs the site's Service Worker, waits until the worker
// controls the page, then loads the page again from it (the shop, the result page or the
// dashboard, as the address asks). From then on the worker answers every visit.

import { CLAIM } from './claim.ts';

const script = document.currentScript as HTMLScriptElement;
/** The site's root: this script sits there, whatever path the site is served under. */
const root = new URL('./', script.src);
const statusLine = document.getElementById('boot-status');

function say(text: string): void {
  if (statusLine) statusLine.textContent = text;
}

async function start(): Promise<void> {
  if (!('serviceWorker' in navigator)) {
    say(
      'This browser cannot run the simulation here: it has no Service Worker (a private window may not; nor a page not served over HTTPS or from localhost).',
    );
    return;
  }
  const workers = navigator.serviceWorker;
  if (workers.controller) {
    // Controlled, yet the worker let this page through: it could not start.
    say('The simulation did not start. Reload the page to try again.');
    return;
  }
  const taken = new Promise((resolve) => {
    workers.addEventListener('controllerchange', resolve, { once: true });
  });
  const registration = await workers.register(new URL('sw.js', root), { scope: root.pathname });
  // The worker stores every file of the site before it takes over: one that could not be
  // fetched fails its install, and nothing else would tell.
  const installing = registration.installing;
  installing?.addEventListener('statechange', () => {
    if (installing.state === 'redundant' && !workers.controller) {
      say(
        'The simulation could not be installed: a file of the site did not load. Reload the page to try again.',
      );
    }
  });
  // No worker installing: one is active already and did not take this page, which was loaded
  // past it (a hard reload) or while the browser was still removing the worker before (its
  // registration given back as it was). It takes a page over on its first start only, or when
  // asked, as here.
  if (installing === null) (await workers.ready).active?.postMessage(CLAIM);
  await taken;
  location.reload();
}

start().catch((error: unknown) => {
  say(`The simulation could not start: ${error instanceof Error ? error.message : String(error)}`);
});
