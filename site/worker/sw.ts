// The site's Service Worker: it answers the shop's pages, the payment handler's routes
// (`payments/`) and the provider's (`provider/`, the sandbox and its dashboard) from the
// world (world.ts), and every other file of the site from the set it cached when it
// installed (precache.ts), so that after the first visit nothing needs the network. It is
// installed by the first page (boot.ts) and takes that page over once its set is stored.
import { withBanner } from '../banner.ts';
import { CLAIM } from '../claim.ts';
import { Database } from './idb.ts';
import { readSaved } from './journal.ts';
import { precache } from './precache.ts';
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
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}

const scope = self as unknown as ServiceWorkerScope;
const { origin } = scope.location;
/** The site's root path: the worker's scope (`/` or `/some/prefix/`). */
const base = new URL(scope.registration.scope).pathname;

const files = precache(scope.registration.scope);

/** The site's own files below its root, which the world does not answer. */
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
      files.text('sandbox-dashboard.js'),
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

/**
 * `response` as the page gets it: a feed (the dashboard's live updates, an event stream) holds
 * the worker while it is open. A browser stops a worker it thinks idle, stream or not (Firefox
 * after 30 s), which cut the feed and left the dashboard reconnecting; an event still being
 * waited on keeps it (until the browser's cap on one event, some minutes, after which the
 * page's stream reconnects).
 */
function heldOpen(response: Response, event: FetchEvent): Response {
  const body = response.body;
  if (!body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  // Ends when the feed does, or when the page goes away (the next write fails, and the
  // sandbox's stream is cancelled).
  event.waitUntil(body.pipeTo(writable).catch(() => {}));
  return new Response(readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function answer(event: FetchEvent): Promise<Response> {
  const request = event.request;
  const current = await theWorld();
  const response = await current.route(await fromBrowser(request, origin), (promise) =>
    event.waitUntil(promise),
  );
  // What the page saw succeed is stored before it sees it.
  await current.flush();
  if (response === undefined) return files.answer(request);
  // Every page says what the site is; not the 3DS challenge inside the shop's own page.
  const html = response.headers.get('content-type')?.startsWith('text/html');
  if (!html || request.destination === 'iframe') return heldOpen(response, event);
  // A payment page's policy admits scripts by its nonce (server-example/page-security.ts).
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  return new Response(withBanner(await response.text(), base, nonce), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

// A worker whose set could not be stored never takes over (its install fails): the pages keep
// the one before, or, on a first visit, the boot page says the simulation did not start.
scope.addEventListener('install', (event) =>
  event.waitUntil(files.fill().then(() => scope.skipWaiting())),
);
scope.addEventListener('activate', (event) =>
  event.waitUntil(Promise.all([files.dropOthers(), scope.clients.claim()])),
);
// A page the worker did not take (boot.ts: loaded past it by a hard reload, or while the browser
// was removing the worker before) asks to be taken over, then loads itself again from it.
scope.addEventListener('message', (event) => {
  if (event.data === CLAIM) event.waitUntil(scope.clients.claim());
});
scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  // Anything elsewhere goes to the network untouched; the site's files come from the set.
  if (url.origin !== origin || !url.pathname.startsWith(base)) return;
  if (STATIC.test(url.pathname.slice(base.length))) {
    if (event.request.method === 'GET') event.respondWith(files.answer(event.request));
    return;
  }
  event.respondWith(answer(event));
});
