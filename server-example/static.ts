/**
 * Files the demo serves as they are: the widget build, the demo's scripts and
 * styles, and the built React and Vue examples. Only files under a known root
 * are served; a path that climbs out of it is a 404.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

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

/** The file `rest` under `root`, or undefined when it does not exist or escapes `root`. */
export async function serveFile(
  root: string,
  rest: string,
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
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    const body = await readFile(path);
    return new Response(body, {
      headers: {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        // A demo rebuilt while the server runs should show at once.
        'cache-control': 'no-cache',
        ...headers,
      },
    });
  } catch {
    return undefined;
  }
}
