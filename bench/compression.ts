// How the demo shop should compress its files: the bytes a browser downloads and
// the server CPU each request costs, for the widget bundle (the script-tag build)
// and a shop page, in-process through Hono's fetch (no sockets, so the numbers are
// the compression's and the file serving's alone). The ways, in turns, rounds of each:
// - none: the file as it is;
// - kept (what server-example/static.ts does): brotli 11 / gzip 9 made once per
//   version of the file, then every request sends those bytes;
// - hono/compress: gzip on every request through CompressionStream (Node 20's has no brotli).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveFile } from '../server-example/static.ts';
import { render } from '../server-example/templates.ts';
import { median } from './load.ts';
import { IIFE } from './measure.ts';

/** What Chromium sends. */
const ACCEPT = 'gzip, deflate, br, zstd';

export interface WayResult {
  name: string;
  /** Body bytes a browser downloads. */
  bytes: number;
  encoding: string;
  /** Server CPU (user + system, every thread) per request, one number per round (µs). */
  cpu: number[];
}

export interface CompressionResult {
  bundle: WayResult[];
  page: WayResult[];
  /** Making the kept forms of the bundle once: brotli 11 and gzip 9 (ms of CPU). */
  oneOff: { brotli: number; gzip: number };
  pageBytes: number;
}

type Fetch = (request: Request) => Response | Promise<Response>;

async function cpuPerRequest(fetch: Fetch, url: string, requests: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const response = await fetch(new Request(url, { headers: { 'accept-encoding': ACCEPT } }));
    await response.arrayBuffer();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

async function describe(fetch: Fetch, url: string): Promise<{ bytes: number; encoding: string }> {
  const response = await fetch(new Request(url, { headers: { 'accept-encoding': ACCEPT } }));
  return {
    bytes: (await response.arrayBuffer()).byteLength,
    encoding: response.headers.get('content-encoding') ?? 'identity',
  };
}

/** The ways to serve one body, as fetch functions. */
function ways(dir: string, name: string, type: string): Record<string, Fetch> {
  const bytes = readFileSync(join(dir, name));
  const plain = () => new Response(bytes, { headers: { 'content-type': type } });
  const gzipEach = new Hono();
  gzipEach.use(compress({ encoding: 'gzip' }));
  gzipEach.get('*', plain);
  return {
    none: async () => (await serveFile(dir, name)) ?? new Response(null, { status: 404 }),
    kept: async (request) =>
      (await serveFile(dir, name, request)) ?? new Response(null, { status: 404 }),
    'hono/compress': (request) => gzipEach.fetch(request),
  };
}

async function measureWays(
  fetches: Record<string, Fetch>,
  requests: number,
  rounds: number,
): Promise<WayResult[]> {
  const url = 'http://127.0.0.1/file';
  const results: WayResult[] = [];
  for (const [name, fetch] of Object.entries(fetches)) {
    // Warm-up, uncounted: JIT, and the kept forms made (the brotli one in the background).
    for (let i = 0; i < 50; i++) await (await fetch(new Request(url))).arrayBuffer();
    const onlyBrotli = { headers: { 'accept-encoding': 'br' } };
    await (await fetch(new Request(url, onlyBrotli))).arrayBuffer();
    results.push({ name, ...(await describe(fetch, url)), cpu: [] });
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? results : [...results].reverse();
    for (const result of order) {
      result.cpu.push(await cpuPerRequest(fetches[result.name] as Fetch, url, requests));
    }
  }
  return results;
}

function cpuMs(work: () => unknown, times = 5): number {
  const values: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    values.push((used.user + used.system) / 1000);
  }
  return median(values);
}

export async function measureCompression(
  requests: number,
  rounds: number,
): Promise<CompressionResult> {
  const { brotliCompressSync, constants, gzipSync } = await import('node:zlib');
  const bundle = readFileSync(IIFE);
  // A shop page as the demo renders it (the widget's attributes as on `/`).
  const html = render('shop.html', {
    title: 'Sandbox T-shirt',
    variant: 'Script-tag build',
    productName: 'Sandbox T-shirt',
    price: '€10.00',
    widget:
      '<payment-widget checkout-id="3f1c1a52-5b1e-4a43-9a55-6c0d2b8e7f10" endpoint="/payments"></payment-widget>',
    head: '',
    scripts:
      '<script src="/assets/payment-widget.iife.js"></script><script src="/demo/events.js"></script>',
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-compression-'));
  try {
    writeFileSync(join(dir, 'payment-widget.iife.js'), bundle);
    writeFileSync(join(dir, 'page.html'), html);
    const bundleWays = await measureWays(
      ways(dir, 'payment-widget.iife.js', 'text/javascript; charset=utf-8'),
      requests,
      rounds,
    );
    // A page is made per request, so it cannot be kept: none against gzip each time.
    const { kept: _, ...pageFetches } = ways(dir, 'page.html', 'text/html; charset=utf-8');
    const pageWays = await measureWays(pageFetches, requests, rounds);
    return {
      bundle: bundleWays,
      page: pageWays,
      pageBytes: Buffer.byteLength(html),
      oneOff: {
        brotli: cpuMs(() =>
          brotliCompressSync(bundle, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: bundle.byteLength,
            },
          }),
        ),
        gzip: cpuMs(() => gzipSync(bundle, { level: 9 })),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
