// The dashboard: `GET /` from a browser (`Accept: text/html`) is a page that loads one
// script, built from src/sandbox/dashboard/ into dist/sandbox-dashboard/dashboard.js by
// `npm run build` (it needs nothing from the network). API clients keep the provider's 404.
//
// The page is under a strict CSP: scripts and styles only from the sandbox itself, no inline
// code, no framing. It never holds a key: on loopback, loading it opens a session cookie
// (sessions.ts); elsewhere the page asks for the key once and trades it for one.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../errors.ts';
import type { Route, RouteRequest } from '../middleware/route.ts';
import { PUBLIC } from '../middleware/scopes.ts';

const SCRIPT = '/sandbox/dashboard/dashboard.js';
const ICON = '/sandbox/dashboard/icon.svg';

const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
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
  'content-security-policy': DASHBOARD_CSP,
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
<link rel="icon" href="${ICON}" type="image/svg+xml">
<script type="module" src="${SCRIPT}"></script>
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

/** The package's root, found from this module whether it runs from src/ or from dist/node/. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (name === 'payment-widget') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

let script: string | undefined;

/** The built script, read once; undefined until `npm run build` made it. */
function builtScript(): string | undefined {
  if (script !== undefined) return script;
  const root = packageRoot();
  const file = root && join(root, 'dist', 'sandbox-dashboard', 'dashboard.js');
  if (file && existsSync(file)) script = readFileSync(file, 'utf8');
  return script;
}

function dashboard({ request, ctx }: RouteRequest): Response {
  if (!(request.headers.get('accept') ?? '').includes('text/html')) {
    throw new ApiError(404, 'NOT_FOUND', 'Resource not found');
  }
  if (builtScript() === undefined) return new Response(NOT_BUILT_PAGE, { headers: PAGE_HEADERS });
  const headers: Record<string, string> = { ...PAGE_HEADERS };
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

export const dashboardRoutes: Route[] = [
  { method: 'GET', path: '/', access: PUBLIC, recorded: false, handler: dashboard },
  {
    method: 'GET',
    path: SCRIPT,
    access: PUBLIC,
    recorded: false,
    handler: asset(builtScript, 'text/javascript; charset=utf-8'),
  },
  {
    method: 'GET',
    path: ICON,
    access: PUBLIC,
    recorded: false,
    handler: asset(() => ICON_SVG, 'image/svg+xml'),
  },
];
