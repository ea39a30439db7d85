// The dashboard: `GET /` from a browser (`Accept: text/html`) is a page that loads one
// script, built from src/sandbox/dashboard/ into dist/sandbox-dashboard/dashboard.js by
// `npm run build`, and the modules of Lit it imports, which the package's `lit` dependency
// holds (it needs nothing from the network). API clients keep the provider's 404.
//
// The page is under a strict CSP: scripts and styles only from the sandbox itself, no inline
// code, no framing; its one inline element, the import map that names where Lit's modules
// are, is allowed by its hash. It never holds a key: on loopback, loading it opens a session
// cookie (state/sessions.ts); elsewhere the page asks for the key once and trades it for one.
//
// The page names its script, Lit's modules and its icon relative to itself (it is the
// sandbox's root), as the script names the routes it calls: a sandbox served under a path
// prefix works the same.
//
// No file is read here: whoever builds the app says where the built script and Lit's modules
// come from (`index.ts` reads them with dashboard-script.ts), so this module runs where there
// is no file system too.

import { Hono } from 'hono';
import type { RouteContext, Routes, SandboxEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { allow, PUBLIC } from '../middleware/access.ts';
import { unrecorded } from '../middleware/record-requests.ts';

const SCRIPT = '/sandbox/dashboard/dashboard.js';
const ICON = '/sandbox/dashboard/icon.svg';
/** Where the page finds Lit's modules: `lit/index.js` and the files it imports. */
const MODULES = '/sandbox/dashboard/modules/';

/** Lit's packages, which the dashboard's script imports (`lit`) or Lit's modules do. */
export const LIT_PACKAGES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'] as const;

/**
 * The page's import map: each of Lit's packages' entry, and any file of it, under MODULES.
 * The built script imports `lit`, which Lit's own modules follow with the rest.
 */
const IMPORT_MAP = JSON.stringify({
  imports: Object.fromEntries(
    LIT_PACKAGES.flatMap((name) => [
      [name, `.${MODULES}${name}/${name === 'lit' ? 'index' : name.replace(/^@lit\//, '')}.js`],
      [`${name}/`, `.${MODULES}${name}/`],
    ]),
  ),
});

/** The import map's hash, as a CSP source (`'sha256-...'`): computed once, when first asked. */
let mapSource: Promise<string> | undefined;
function importMapSource(): Promise<string> {
  mapSource ??= crypto.subtle
    .digest('SHA-256', new TextEncoder().encode(IMPORT_MAP))
    .then((hash) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(hash)))}'`);
  return mapSource;
}

const dashboardCsp = (mapHash: string) =>
  [
    "default-src 'self'",
    `script-src 'self' ${mapHash}`,
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    // Lit writes the DOM through its own Trusted Types policy; nothing else may.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const page = (body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>payment-sandbox dashboard</title>
<link rel="icon" href=".${ICON}" type="image/svg+xml">
<script type="importmap">${IMPORT_MAP}</script>
<script type="module" src=".${SCRIPT}"></script>
</head>
<body>
${body}
</body>
</html>
`;

const DASHBOARD_PAGE = page(
  '<sandbox-dashboard></sandbox-dashboard>\n<noscript>The dashboard needs JavaScript.</noscript>',
);
const NOT_BUILT_PAGE = page(
  '<main><h1>The dashboard is not built</h1><p>Run <code>npm run build</code>, then reload. The API works without it.</p></main>',
);

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d4ed8"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>';

/** The built dashboard script, or undefined while there is none (not built yet). */
export type DashboardScript = () => string | undefined;

/**
 * A module of Lit's by its path under MODULES (`lit-html/lit-html.js`: a package of
 * LIT_PACKAGES, then a file of it), or undefined when there is none.
 */
export type LitModules = (path: string) => string | undefined;

/** A path under MODULES: one of Lit's packages, then a `.js` file's path, with no `..`. */
const MODULE_PATH = new RegExp(
  `^(?:${LIT_PACKAGES.join('|')})/(?:[\\w-]+/)*[\\w-]+(?:\\.[\\w-]+)*\\.js$`,
);

async function dashboard(c: RouteContext, script: DashboardScript): Promise<Response> {
  const request = c.req.raw;
  const ctx = c.env.sandbox;
  if (!(request.headers.get('accept') ?? '').includes('text/html')) {
    throw new ApiError(404, 'NOT_FOUND', 'Resource not found');
  }
  const headers: Record<string, string> = {
    ...PAGE_HEADERS,
    'content-security-policy': dashboardCsp(await importMapSource()),
  };
  if (script() === undefined) return new Response(NOT_BUILT_PAGE, { headers });
  if (ctx.sessions.opensFor(request) && !ctx.sessions.hasCookie(request)) {
    headers['set-cookie'] = ctx.sessions.open();
  }
  return new Response(DASHBOARD_PAGE, { headers });
}

function asset(body: () => string | undefined, type: string) {
  return (): Response => {
    const text = body();
    if (text === undefined) throw new ApiError(404, 'NOT_FOUND', 'Resource not found');
    return new Response(text, {
      headers: {
        'content-type': type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      },
    });
  };
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** The page, its script, Lit's modules and its icon; kept out of the request log. */
export function dashboardRoutes(script: DashboardScript, lit: LitModules): Routes {
  const anyone = allow(PUBLIC);
  return new Hono<SandboxEnv>()
    .get('/', unrecorded, anyone, (c) => dashboard(c, script))
    .get(SCRIPT, unrecorded, anyone, asset(script, JAVASCRIPT))
    .get(`${MODULES}*`, unrecorded, anyone, (c) => {
      const path = c.req.path.slice(MODULES.length);
      const found = MODULE_PATH.test(path) ? lit(path) : undefined;
      return asset(() => found, JAVASCRIPT)();
    })
    .get(
      ICON,
      unrecorded,
      anyone,
      asset(() => ICON_SVG, 'image/svg+xml'),
    );
}
