/**
 * Files the demo serves as they are: the widget build, the demo's scripts and
 * styles, and the built React and Vue examples. Only files under a known root
 * are served; a path that climbs out of it is a 404.
 *
 * Text files go out compressed when the browser accepts it (brotli, else gzip,
 * chosen from Accept-Encoding, with `Vary: Accept-Encoding`). Each file is
 * compressed once per version and kept in memory, keyed by its size and mtime,
 * so a rebuilt file is compressed again on its first request and nothing on
 * disk can go stale (no `.br`/`.gz` beside the build, which is also the
 * published package). gzip (a few ms) is made at once; brotli at its best
 * quality (about half a second for the widget bundle) is made in the
 * background, and answers from then on. `npm run bench -- lighthouse` measures
 * the bytes; BENCHMARKS.md has why this over compressing on every request.
 *
 * Caching: a file whose name carries its content hash (Vite's
 * `assets/name-[hash].js`) never changes, so it is cached for a year as
 * immutable; any other file revalidates every time (`no-cache`, with an ETag
 * and Last-Modified; a match is a 304), so a rebuilt demo shows at once.
 */
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzipSync } from 'node:zlib';
import { compress } from 'hono/compress';
import { parseAccept } from 'hono/utils/accept';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** Types worth compressing: text. PNG and ICO are compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/json|image\/svg\+xml)/;
/** Below this, a compressed answer saves less than its headers cost (hono/compress's default too). */
const MIN_COMPRESS_BYTES = 1024;

/**
 * A content-hashed name as Vite writes it: under an `assets/` folder,
 * `name-[hash].ext` with an 8-character base64url hash (e.g.
 * `react/assets/index-B4h0RNC-.js`). Anything else may change in place.
 */
const HASHED = /(?:^|\/)assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export type Encoding = 'br' | 'gzip';

/** One version of one file: its bytes, and its compressed forms once made. */
interface Entry {
  version: string;
  body: Bytes;
  gzip?: Bytes;
  br?: Bytes;
  brotli?: Promise<Bytes>;
}

/** Bytes a Response takes as its body (a Buffer's type allows a SharedArrayBuffer, which it does not). */
type Bytes = Uint8Array<ArrayBuffer>;
/** Copied once per version into bytes of their own. */
const own = (bytes: Uint8Array): Bytes => new Uint8Array(bytes);

/** Shared by every shop in the process (tests start many): a file is compressed once per version. */
const entries = new Map<string, Entry>();

const brotli = promisify(brotliCompress);

/** Starts brotli (quality 11, as a CDN precompresses) in the background; resolves with the bytes. */
function startBrotli(entry: Entry): Promise<Bytes> {
  entry.brotli ??= brotli(entry.body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.byteLength,
    },
  }).then(
    (bytes) => {
      entry.br = own(bytes);
      return entry.br;
    },
    (error: unknown) => {
      entry.brotli = undefined;
      throw error;
    },
  );
  return entry.brotli;
}

/**
 * The encodings the request accepts, by its q-values; on a tie brotli first
 * (smaller). `identity` needs no asking: it is what is left when neither is.
 */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (!header) return [];
  const accepts = parseAccept(header);
  const q = (name: string) =>
    accepts.find((a) => a.type.toLowerCase() === name)?.q ??
    accepts.find((a) => a.type === '*')?.q ??
    0;
  return (['br', 'gzip'] as const)
    .filter((encoding) => q(encoding) > 0)
    .sort((a, b) => q(b) - q(a));
}

/** The body to send: the best accepted form ready now (brotli is awaited only when it alone is accepted). */
async function pick(
  entry: Entry,
  accepted: Encoding[],
): Promise<{ body: Bytes; encoding?: Encoding }> {
  for (const encoding of accepted) {
    if (encoding === 'br') {
      if (entry.br) return { body: entry.br, encoding };
      const pending = startBrotli(entry);
      if (accepted.includes('gzip')) {
        // gzip now rather than making this request wait for brotli; a failed
        // brotli is tried again by the next request that asks for it.
        pending.catch(() => {});
        continue;
      }
      return { body: await pending, encoding };
    }
    entry.gzip ??= own(gzipSync(entry.body, { level: 9 }));
    return { body: entry.gzip, encoding };
  }
  return { body: entry.body };
}

/** A weak validator from what changes when the file does, as most static servers make it. */
function etagOf(stats: Stats): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

/** Whether the browser's copy is current: If-None-Match first, If-Modified-Since only without it. */
function notModified(request: Request | undefined, etag: string, stats: Stats): boolean {
  const match = request?.headers.get('if-none-match');
  if (match) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, '');
    return match.trim() === '*' || match.split(',').some((tag) => weak(tag) === weak(etag));
  }
  const since = Date.parse(request?.headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(stats.mtimeMs / 1000) * 1000 <= since;
}

/**
 * The file `rest` under `root`, or undefined when it does not exist or escapes
 * `root`. With the `request`, it is compressed as the request accepts and
 * answered 304 when the request's copy is current.
 */
export async function serveFile(
  root: string,
  rest: string,
  request?: Request,
  headers: Record<string, string> = {},
): Promise<Response | undefined> {
  let relative: string;
  try {
    relative = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  const base = resolve(root);
  let path = resolve(base, normalize(`.${sep}${relative}`));
  if (path !== base && !path.startsWith(base + sep)) return undefined;
  let stats: Stats;
  let entry: Entry;
  try {
    stats = await stat(path);
    if (stats.isDirectory()) {
      path = join(path, 'index.html');
      stats = await stat(path);
    }
    const version = `${stats.size}-${stats.mtimeMs}`;
    const known = entries.get(path);
    if (known?.version === version) entry = known;
    else {
      entry = { version, body: await readFile(path) };
      entries.set(path, entry);
    }
  } catch {
    return undefined;
  }
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const negotiated = COMPRESSIBLE.test(type) && entry.body.byteLength >= MIN_COMPRESS_BYTES;
  const etag = etagOf(stats);
  const common: Record<string, string> = {
    'cache-control': HASHED.test(path.slice(base.length).split(sep).join('/'))
      ? IMMUTABLE
      : REVALIDATE,
    etag,
    'last-modified': stats.mtime.toUTCString(),
    ...(negotiated ? { vary: 'Accept-Encoding' } : {}),
    ...headers,
  };
  if (notModified(request, etag, stats))
    return new Response(null, { status: 304, headers: common });
  const accepted = negotiated
    ? acceptedEncodings(request?.headers.get('accept-encoding') ?? null)
    : [];
  const { body, encoding } = await pick(entry, accepted);
  return new Response(body, {
    headers: {
      'content-type': type,
      'x-content-type-options': 'nosniff',
      'content-length': String(body.byteLength),
      ...(encoding ? { 'content-encoding': encoding } : {}),
      ...common,
    },
  });
}

/**
 * gzip for the demo's pages (HTML, a few KiB, made per request: each holds its
 * own checkout id, so there is nothing to keep). hono/compress, on Node's
 * CompressionStream, which has no brotli on Node 20; for pages this small the
 * difference is a few dozen bytes. Only HTML: the payment API's JSON answers
 * stay as the handler makes them.
 */
export const compressPages = compress({
  encoding: 'gzip',
  contentTypeFilter: /^text\/html/,
});
