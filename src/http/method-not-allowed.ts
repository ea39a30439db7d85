/**
 * 405 with `Allow` for a path whose routes exist but not for this method, answered as JSON in
 * the app's own error shape. Asked only once no route matched (the app's not-found handler),
 * so a request that finds its route pays nothing for it.
 */
import type { Context, Env, Hono, NotFoundHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { json } from './json.ts';

/**
 * The app's not-found handler: 405 with `Allow` when the path has routes for other methods,
 * else `notFound`. Register it after the routes; it reads the app's route table on first use.
 */
export function notFoundOrMethodNotAllowed<E extends Env>(
  // biome-ignore lint/suspicious/noExplicitAny: any app's route table will do, whatever its schema
  app: Hono<E, any, any>,
  errorBody: (code: 'METHOD_NOT_ALLOWED', message: string) => unknown,
  notFound: (c: Context<E>) => Response | Promise<Response>,
): NotFoundHandler<E> {
  let byPath: TrieRouter<readonly string[]> | undefined;
  const methodsOf = (path: string): Set<string> => {
    if (byPath === undefined) {
      const methods = new Map<string, Set<string>>();
      for (const route of app.routes) {
        // Middleware (ALL) serves every method; HEAD follows GET.
        if (route.method === 'ALL' || route.method === 'HEAD') continue;
        const set = methods.get(route.path) ?? new Set<string>();
        set.add(route.method);
        methods.set(route.path, set);
      }
      byPath = new TrieRouter();
      for (const [routePath, set] of methods) byPath.add('ALL', routePath, [...set]);
    }
    const found = new Set<string>();
    for (const [methods] of byPath.match('ALL', path)[0]) for (const m of methods) found.add(m);
    return found;
  };
  return (c) => {
    const methods = methodsOf(c.req.path);
    if (methods.size === 0 || methods.has(c.req.method)) return notFound(c);
    // Preflights are answered by the CORS rules: Allow names the methods the routes declare.
    const allow = [...methods].filter((m) => m !== 'OPTIONS').join(', ');
    return json(
      errorBody('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; use ${allow}`),
      405,
      { allow },
    );
  };
}
