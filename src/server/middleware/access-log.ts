/**
 * One `info` entry per request for the merchant's logger: method, route, status, duration and
 * request id. The route is the pattern below `basePath` that answered (`/checkouts/:id`), never
 * the path, which can carry a customer's id; no query string, no body.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { HandlerEnv, Logger } from '../types.ts';

export interface AccessLogOptions {
  log: Logger;
  /** Where the handler is mounted; the logged route is the pattern below it. */
  basePath: string;
}

/** The route pattern below basePath, not the path: paths carry customer ids. */
export function routeLabel(c: Context<HandlerEnv>, basePath: string): string {
  const pattern = routePath(c, -1);
  if (!pattern.endsWith('*')) return pattern.slice(basePath.length) || '/';
  const path = c.req.path;
  const inside = path === basePath || path.startsWith(`${basePath}/`);
  return inside ? '(no such route)' : '(outside basePath)';
}

export function accessLog({ log, basePath }: AccessLogOptions): MiddlewareHandler<HandlerEnv> {
  return async function accessLog(c, next) {
    const started = Date.now();
    await next();
    log({
      level: 'info',
      message: 'request',
      method: c.req.method,
      route: routeLabel(c, basePath),
      status: c.res.status,
      durationMs: Date.now() - started,
      requestId: c.get('requestId'),
    });
  };
}
