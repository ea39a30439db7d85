// The sandbox as a Web `Request -> Response` function, on Hono: the request id, the access
// log, the request log and fault injection wrap every request, each route module's routes
// are mounted with their access rule, body cap, CORS and deprecation headers, and errors
// become the provider's error shape. No sockets here; `index.ts` serves it through the shared
// node adapter.

import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { limitBody } from '../http/body.ts';
import { HttpError, providerErrorBody } from '../http/errors.ts';
import { notFoundOrMethodNotAllowed } from '../http/methods.ts';
import { requestIdFrom } from '../http/request-id.ts';
import type { SandboxContext } from './context.ts';
import { ApiError, apiErrorResponse, BODY_LIMIT } from './errors.ts';
import { authorize } from './middleware/access.ts';
import { withDeprecation } from './middleware/deprecation.ts';
import type { Route, RouteRequest } from './middleware/route.ts';
import { routeModules } from './routes.ts';
import { takeFault } from './simulation/faults.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The path as the client sent it (still %-encoded): what the log and faults match on. */
function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}

/** Only the process route answers preflights, for a page that calls the API directly. */
const processCors = cors({
  // Bearer keys travel in a header, never in cookies, so `*` is safe and simplest.
  origin: (origin) => origin || '*',
  allowMethods: ['PUT', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type'],
  maxAge: 600,
});

/** What a route handler gets; the URL is parsed only by routes that read the query or build links. */
class LazyRouteRequest implements RouteRequest {
  readonly request: Request;
  readonly params: Record<string, string>;
  readonly ctx: SandboxContext;
  #url: URL | undefined;

  constructor(c: Context, ctx: SandboxContext) {
    this.request = c.req.raw;
    this.params = c.req.param() as Record<string, string>;
    this.ctx = ctx;
  }

  get url(): URL {
    this.#url ??= new URL(this.request.url);
    return this.#url;
  }

  get origin(): string {
    return this.url.origin;
  }
}

/** Adds `X-Request-Id`; an answer with read-only headers (a redirect) is copied first. */
function withRequestId(c: Context, requestId: string): void {
  try {
    c.res.headers.set('x-request-id', requestId);
  } catch {
    const res = c.res;
    const headers = new Headers(res.headers);
    headers.set('x-request-id', requestId);
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/** The same cap on every route that takes a body; the middleware keeps no state of its own. */
const capBody = limitBody(BODY_LIMIT);

/** One route: its access rule, then the body cap, then the handler; deprecation headers after. */
function mount(app: Hono, ctx: SandboxContext, route: Route, unrecorded: WeakSet<Request>): void {
  const deprecated = route.deprecated;
  const recorded = route.recorded !== false;
  const guard: MiddlewareHandler = async (c, next) => {
    if (!recorded) unrecorded.add(c.req.raw);
    const denied = authorize(c.req.raw, route.access, ctx.config, ctx.sessions);
    if (denied) c.res = denied;
    else await next();
    // The route's request is made again here only for a deprecated route: it parses the URL
    // only when a successor link needs it.
    if (deprecated) withDeprecation(c.res, deprecated, new LazyRouteRequest(c, ctx), ctx.config);
  };
  const run = (c: Context) => route.handler(new LazyRouteRequest(c, ctx));
  const chain: MiddlewareHandler[] = [guard];
  if (route.method !== 'GET') chain.push(capBody);
  if (route.cors) {
    app.options(route.path, processCors);
    chain.unshift(processCors);
  }
  app.on(route.method, [route.path], ...chain, run);
}

/** How `handle` was called: from the socket, which sets `X-Request-Id` on Node's response. */
export interface HandleOptions {
  requestIdOnSocket?: boolean;
}

export function createApp(ctx: SandboxContext, extraRoutes: readonly Route[] = []) {
  const app = new Hono();
  /** Requests to routes kept out of the request log (`Route.recorded`). */
  const unrecorded = new WeakSet<Request>();

  app.use(async function logAndFaults(c, next) {
    const started = performance.now();
    const at = ctx.clock.now();
    const method = c.req.method;
    const path = rawPath(c.req.url);
    const requestId = requestIdFrom(c.req.raw.headers.get('x-request-id'));
    const fault = path.startsWith('/sandbox/') ? undefined : takeFault(ctx.store, method, path);
    if (fault?.kind === 'drop') {
      c.res = Response.error();
    } else if (fault?.kind === 'error') {
      c.res = new ApiError(fault.status, 'INTERNAL_ERROR', 'Injected fault').toResponse();
    } else {
      if (fault?.kind === 'latency') await sleep(fault.delayMs);
      await next();
    }
    const status = c.res.status;
    const onSocket = (c.env as HandleOptions | undefined)?.requestIdOnSocket === true;
    if (status !== 0 && !onSocket) withRequestId(c, requestId);
    const durationMs = performance.now() - started;
    // Path only: query strings and bodies stay out of the log.
    if (ctx.accessLog) {
      ctx.log(
        `${method} ${path} ${status === 0 ? 'dropped' : status} ${durationMs.toFixed(1)}ms ${requestId}`,
      );
    }
    if (unrecorded.has(c.req.raw)) return;
    const traceparent = c.req.header('traceparent') ?? '';
    ctx.requests.record(at, method, path, status, durationMs, requestId, traceparent);
  });

  for (const routes of routeModules) {
    for (const route of routes) mount(app, ctx, route, unrecorded);
  }
  for (const route of extraRoutes) mount(app, ctx, route, unrecorded);

  app.notFound(
    notFoundOrMethodNotAllowed(app, providerErrorBody, () =>
      new ApiError(404, 'NOT_FOUND', 'Resource not found').toResponse(),
    ),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) return error.toResponse();
    if (error instanceof HttpError) return apiErrorResponse(error);
    // Only the error's name: a message could echo request data.
    ctx.log(`internal error on ${c.req.method} ${c.req.routePath}: ${error.name}`);
    return new ApiError(500, 'INTERNAL_ERROR', 'Internal sandbox error').toResponse();
  });

  return async function handle(request: Request, options?: HandleOptions): Promise<Response> {
    if (request.method !== 'HEAD') return app.fetch(request, options);
    // Hono answers HEAD from GET itself but cannot copy a dropped connection's answer.
    const response = await app.fetch(
      new Request(request.url, { method: 'GET', headers: request.headers }),
      options,
    );
    return response.status === 0 ? response : new Response(null, response);
  };
}
