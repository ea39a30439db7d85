// `payment-widget check-page`: what a payment page sends a browser, as a record to keep and
// compare (a change- and tamper-detection mechanism for the page's security headers and
// scripts). snapshotPage() fetches the page and every script it names, bounded in time, bytes
// and redirects; differences() lists what changed since a baseline, in sentences. The widget's
// own files (its parts and locales, which the page never names) are fetched beside its bundle
// and checked against the package's dist/integrity.json. ./check-cli.ts is the command.
import { createHash } from 'node:crypto';
import { BUNDLES, type BuiltFiles } from './manifest.ts';

/** The response headers that make a page's security, recorded and compared. */
export const SECURITY_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'reporting-endpoints',
  'report-to',
  'strict-transport-security',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
] as const;

/** One script of the page: where it comes from, what the page says of it, its bytes' hash. */
export interface PageScript {
  /** The script's URL (resolved against the page), or `inline #n` for the n-th inline one. */
  src: string;
  /** The page's `integrity` for it, if any. */
  integrity?: string;
  /** `sha384-...` of the bytes the page's browser gets, or `unreadable (why)`. */
  sha384: string;
}

/** A page as recorded: its final URL, security headers and scripts (the widget's files among them). */
export interface PageSnapshot {
  url: string;
  headers: Partial<Record<(typeof SECURITY_HEADERS)[number], string>>;
  scripts: PageScript[];
  /** What was wrong at the time of recording, whatever the baseline (a file failing its hash). */
  problems: string[];
}

export interface CheckLimits {
  /** Each request's time, in milliseconds. Default 10 000. */
  timeoutMs: number;
  /** Each response's bytes at most. Default 5 MiB. */
  maxBytes: number;
  /** Redirects followed at most, per request. Default 5. */
  maxRedirects: number;
  /** Scripts fetched at most. Default 100. */
  maxScripts: number;
}

export const CHECK_LIMITS: CheckLimits = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxScripts: 100,
};

const sri = (bytes: Uint8Array | string): string =>
  `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** `url`'s answer and final URL, following at most `maxRedirects`, read to at most `maxBytes`. */
export async function fetchBounded(
  url: string,
  limits: CheckLimits,
): Promise<{ url: string; headers: Headers; body: Uint8Array }> {
  let at = url;
  for (let hop = 0; hop <= limits.maxRedirects; hop += 1) {
    let answer: Response;
    try {
      answer = await fetch(at, {
        redirect: 'manual',
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
    } catch (error) {
      // fetch says only "fetch failed": the URL, and Node's word for why (ENOTFOUND, ECONNREFUSED).
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      throw new Error(`${at}: ${String(cause?.code ?? cause?.message ?? error)}`);
    }
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location !== null) {
      await answer.body?.cancel();
      at = new URL(location, at).href;
      continue;
    }
    if (!answer.ok) {
      await answer.body?.cancel();
      throw new Error(`${at}: answered ${answer.status}`);
    }
    return { url: at, headers: answer.headers, body: await readBounded(answer, at, limits) };
  }
  throw new Error(`${url}: more than ${limits.maxRedirects} redirects`);
}

async function readBounded(answer: Response, url: string, limits: CheckLimits) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (answer.body === null) return new Uint8Array();
  for await (const chunk of answer.body) {
    size += chunk.byteLength;
    if (size > limits.maxBytes) {
      await answer.body.cancel().catch(() => undefined);
      throw new Error(`${url}: more than ${limits.maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The hash of the script at `at`, or why it could not be read: a script added from a host that
 * is down, or that answers the check otherwise than a browser, is still a change to report.
 */
async function hashOf(at: string, limits: CheckLimits): Promise<string> {
  try {
    return sri((await fetchBounded(at, limits)).body);
  } catch (error) {
    return `unreadable (${String(error).replace(`Error: ${at}: `, '')})`;
  }
}

/** A per-response nonce says nothing about a change: it is recorded as `'nonce-*'`. */
const withoutNonces = (value: string) => value.replace(/'nonce-[^']*'/g, "'nonce-*'");

/** The <script> elements of `html`: their attributes and, for inline ones, their text. */
export function scriptsIn(html: string): { attributes: Map<string, string>; text: string }[] {
  const found: { attributes: Map<string, string>; text: string }[] = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = new Map<string, string>();
    for (const a of (match[1] ?? '').matchAll(
      /([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g,
    )) {
      const value = a[2] ?? '';
      attributes.set(
        (a[1] ?? '').toLowerCase(),
        value.replace(/^["']|["']$/g, '').replace(/&amp;/g, '&'),
      );
    }
    found.push({ attributes, text: match[2] ?? '' });
  }
  return found;
}

/**
 * The page at `url` as a browser gets it: its security headers, and each of its scripts' hash
 * (each fetched); beside the widget's bundle, each file of the widget's, checked against
 * `manifest` (the package's dist/integrity.json).
 */
export async function snapshotPage(
  url: string,
  manifest: BuiltFiles,
  limits: CheckLimits = CHECK_LIMITS,
): Promise<PageSnapshot> {
  const page = await fetchBounded(url, limits);
  const headers: PageSnapshot['headers'] = {};
  for (const name of SECURITY_HEADERS) {
    const value = page.headers.get(name);
    if (value !== null) headers[name] = withoutNonces(value);
  }
  const problems: string[] = [];
  const scripts: PageScript[] = [];
  const elements = scriptsIn(new TextDecoder().decode(page.body));
  if (elements.length > limits.maxScripts) {
    throw new Error(`${page.url}: more than ${limits.maxScripts} scripts`);
  }
  let inline = 0;
  for (const { attributes, text } of elements) {
    const src = attributes.get('src');
    const integrity = attributes.get('integrity') || undefined;
    if (src === undefined) {
      inline += 1;
      scripts.push({ src: `inline #${inline}`, sha384: sri(text) });
      continue;
    }
    const at = new URL(src, page.url).href;
    const sha384 = await hashOf(at, limits);
    scripts.push(integrity === undefined ? { src: at, sha384 } : { src: at, integrity, sha384 });
    if (sha384.startsWith('unreadable')) problems.push(`${at}: ${sha384}`);
    else if (integrity !== undefined && !integrity.split(/\s+/).includes(sha384)) {
      problems.push(`${at}: its bytes do not match the page's integrity ${integrity}`);
    }
    scripts.push(...(await widgetFiles(at, sha384, manifest, limits, problems)));
  }
  return { url: page.url, headers, scripts, problems };
}

/**
 * When `src` is the widget's bundle: every file the widget checks itself (its parts and
 * locales), fetched from beside it, each compared with integrity.json.
 */
async function widgetFiles(
  src: string,
  sha384: string,
  manifest: BuiltFiles,
  limits: CheckLimits,
  problems: string[],
): Promise<PageScript[]> {
  const { pathname } = new URL(src);
  const bundle = Object.values(BUNDLES).find((path) => pathname.endsWith(`/${path}`));
  if (bundle === undefined) return [];
  const listed = manifest.files.find((f) => f.path === bundle);
  if (listed !== undefined && listed.integrity !== sha384 && !sha384.startsWith('unreadable')) {
    problems.push(
      `${src}: not the ${bundle} of ${manifest.name} ${manifest.version} (integrity.json)`,
    );
  }
  // The bundles sit at the top of dist/, the folder every path in integrity.json is under.
  const base = new URL('./', src);
  const files: PageScript[] = [];
  for (const file of manifest.files.filter((f) => f.checkedBy === 'widget')) {
    const at = new URL(file.path, base).href;
    const got = await hashOf(at, limits);
    files.push({ src: at, integrity: file.integrity, sha384: got });
    if (got.startsWith('unreadable')) problems.push(`${at}: ${got}`);
    else if (got !== file.integrity) {
      problems.push(
        `${at}: not the ${file.path} of ${manifest.name} ${manifest.version} (integrity.json ${file.integrity})`,
      );
    }
  }
  return files;
}

/** What changed from `before` to `now`, one sentence each; none when nothing did. */
export function differences(before: PageSnapshot, now: PageSnapshot): string[] {
  const out: string[] = [];
  if (before.url !== now.url) out.push(`the page is now at ${now.url}, was ${before.url}`);
  for (const name of SECURITY_HEADERS) {
    const was = before.headers[name];
    const is = now.headers[name];
    if (was === is) continue;
    if (was === undefined) out.push(`header ${name} added: ${is}`);
    else if (is === undefined) out.push(`header ${name} removed (was: ${was})`);
    else out.push(`header ${name} changed:\n    was: ${was}\n    now: ${is}`);
  }
  const bySrc = (list: PageScript[]) => new Map(list.map((s) => [s.src, s]));
  const was = bySrc(before.scripts);
  const is = bySrc(now.scripts);
  for (const [src, script] of is) {
    const old = was.get(src);
    if (old === undefined) out.push(`script added: ${src} (${script.sha384})`);
    else if (old.sha384 !== script.sha384) {
      out.push(`script changed: ${src}\n    was: ${old.sha384}\n    now: ${script.sha384}`);
    } else if (old.integrity !== script.integrity) {
      out.push(
        `script ${src}: its integrity changed from ${old.integrity ?? 'none'} to ${script.integrity ?? 'none'}`,
      );
    }
  }
  for (const src of was.keys()) if (!is.has(src)) out.push(`script removed: ${src}`);
  for (const problem of now.problems) out.push(problem);
  return out;
}
