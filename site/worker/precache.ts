// Every file of the site, cached when the worker installs: after the first visit the
// playground needs no network, whatever the first page happened to load (the 3DS step, a
// bank method's, another language) and whatever the static server says of caching (its
// `Cache-Control: no-cache` leaves the browser's HTTP cache nothing to answer offline).
// The build writes the list and a hash of the files' bytes into the worker (SITE_FILES,
// SITE_VERSION: scripts/build-site.ts), so a changed build is a changed worker: the browser
// installs it beside the old one, it caches the new files as one set, and once it takes over
// it drops the old set. A page never mixes files of two builds from here.

/** The site's files, relative to its root: every file of the build but the worker itself. */
declare const SITE_FILES: readonly string[];
/** A hash of those files' bytes. */
declare const SITE_VERSION: string;

/** What every cache of this site (under its path) is named from. */
function prefix(base: string): string {
  return `payment-widget-site:${base}:`;
}

export interface Precache {
  /** Fetches and stores every file; rejects when one cannot be had (the install then fails). */
  fill(): Promise<void>;
  /** Deletes the sets of earlier builds of this site. */
  dropOthers(): Promise<void>;
  /** The stored answer for a file of the site, else the network's. */
  answer(request: Request): Promise<Response>;
  /** A file's text (`path` relative to the root), stored or fetched; undefined if neither. */
  text(path: string): Promise<string | undefined>;
}

/** The precache of the site whose root is `root` (the worker's scope URL). */
export function precache(root: string): Precache {
  const base = new URL(root).pathname;
  const name = prefix(base) + SITE_VERSION;
  const open = () => caches.open(name);

  return {
    async fill() {
      const cache = await open();
      // Past the HTTP cache: the set is the bytes this build has, not what an older one left.
      await cache.addAll(
        SITE_FILES.map((file) => new Request(new URL(file, root), { cache: 'reload' })),
      );
    },
    async dropOthers() {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((other) => other.startsWith(prefix(base)) && other !== name)
          .map((other) => caches.delete(other)),
      );
    },
    async answer(request) {
      const stored = await (await open()).match(request);
      return stored ?? fetch(request);
    },
    async text(path) {
      const url = new URL(path, root).href;
      const stored = await (await open()).match(url);
      if (stored) return stored.text();
      try {
        const fetched = await fetch(url);
        return fetched.ok ? await fetched.text() : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
