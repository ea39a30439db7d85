/**
 * What no route matched: 405 with `Allow` when the path has routes for other methods (the
 * shared rule, src/http/method-not-allowed.ts), else a 404 that says what to fix, logged once
 * as a `warn`: a request inside `basePath` names the routes there are, one outside it names
 * `basePath` itself (the handler mounted at another path than the option says), and one of its
 * routes without `basePath` names the mount that cut it off.
 */
import type { Hono, NotFoundHandler } from 'hono';
import { errorJson, handlerErrorBody } from '../../http/errors.ts';
import { notFoundOrMethodNotAllowed } from '../../http/method-not-allowed.ts';
import type { HandlerEnv, Logger } from '../types.ts';

export interface NotFoundOptions {
  basePath: string;
  log: Logger;
}

export function notFound(
  app: Hono<HandlerEnv>,
  { basePath, log }: NotFoundOptions,
): NotFoundHandler<HandlerEnv> {
  // The first segment of every route the app has (`checkouts`, `payment-methods`, ...), read
  // from the app itself: the message and the cut-off check name each route there is.
  const segments = [
    ...new Set(
      app.routes
        .filter((route) => route.method !== 'ALL' && route.path.startsWith(`${basePath}/`))
        .map((route) => route.path.slice(basePath.length).split('/')[1] ?? '')
        .filter(Boolean),
    ),
  ];
  const routes = segments.map((segment) => `${basePath}/${segment}`);
  const listed = `${routes.slice(0, -1).join(', ')} and ${routes.at(-1)}`;
  return notFoundOrMethodNotAllowed(app, handlerErrorBody, (c) => {
    const { path } = c.req;
    const inside = path === basePath || path.startsWith(`${basePath}/`);
    // One of its routes with basePath cut off: a mount that strips its prefix (Elysia's
    // mount('/payments', ...), Hono's mount() or app.mount() by default) hands on a new request without it, and basePath cannot follow
    // (it is publicUrl's path, where the browser and the provider reach the routes).
    const stripped = !inside && basePath !== '' && segments.includes(path.split('/')[1] ?? '');
    const problem = inside ? 'no-such-route' : stripped ? 'base-path-cut-off' : 'outside-base-path';
    const message = inside
      ? `No payment route ${c.req.method} ${path}: the routes are ${listed}`
      : stripped
        ? `The payment handler got ${path}: a mount cut ${basePath} off (Elysia's mount('${basePath}', ...), Hono's without replaceRequest: false); route ${basePath}/* to it whole`
        : `The payment handler got ${path}, outside its basePath ${basePath || '/'}: set basePath to the path it is mounted at, and the widget's endpoint to the same`;
    log({ level: 'warn', message, problem });
    return errorJson(404, 'NOT_FOUND', message);
  });
}
