// The site's Service Worker: it answers the shop's pages, the payment handler's routes
// (`payments/`) and the provider's (`provider/`, the sandbox and its dashboard) from the
// world (world.ts), and leaves every other file of the site to the static server. It is
// installed by the first page (boot.ts) and takes that page over at once.
import { withBanner } from '../banner.ts';
import { Database } from './idb.ts';
import { readSaved } from './journal.ts';
import { Records } from './records.ts';
import { fromBrowser } from './request.ts';
import { createWorld, type World } from './world.ts';

// The few worker types used here (the project's TypeScript lib is the DOM's, not WebWorker's).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const scope = self as unknown as ServiceWorkerScope;
const { origin } = scope.location;
/** The site's root path: the worker's scope (`/` or `/some/prefix/`). */
const base = new URL(scope.registration.scope).pathname;

/** The site's own files below its root, which only the static server has. */
const STATIC = /^(?:assets|demo|examples)\/|^[\w-]+\.(?:js|css)$/;

let world: Promise<World> | undefined;

/** The world, built on the first request after the worker (re)started, from what was saved. */
function theWorld(): Promise<World> {
  world ??= (async () => {
    const db = await Database.open(`payment-widget-site:${base}`);
    const [saved, records, script] = await Promise.all([
      readSaved(db),
      Records.load(db),
      // The dashboard's built script, a file of the site (a worker's own fetch goes past it).
      fetch(`${base}sandbox-dashboard.js`).then((r) => (r.ok ? r.text() : undefined)),
    ]);
    return createWorld({
      origin,
      base,
      db,
      saved,
      records,
      dashboardScript: () => script,
    });
  })();
  world.catch(() => {
    world = undefined;
  });
  return world;
}

async function answer(event: FetchEvent): Promise<Response> {
  const request = event.request;
  const current = await theWorld();
  const response = await current.route(await fromBrowser(request, origin), (promise) =>
    event.waitUntil(promise),
  );
  // What the page saw succeed is stored before it sees it.
  await current.flush();
  if (response === undefined) return fetch(request);
  // Every page says what the site is; not the 3DS challenge inside the shop's own page.
  const html = response.headers.get('content-type')?.startsWith('text/html');
  if (!html || request.destination === 'iframe') return response;
  return new Response(withBanner(await response.text(), base), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  // Files of the site (and anything elsewhere) go to the network untouched.
  if (url.origin !== origin || !url.pathname.startsWith(base)) return;
  if (STATIC.test(url.pathname.slice(base.length))) return;
  event.respondWith(answer(event));
});
