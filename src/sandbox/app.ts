// The sandbox as a Web `Request -> Response` function: faults, routing, auth, CORS, errors
// and the access log. No sockets here; `node.ts` adapts it to node:http.

import { authorize } from './auth.ts';
import type { SandboxContext } from './context.ts';
import { json, ProviderError } from './http.ts';
import { type Route, Router } from './router.ts';
import { withDeprecation } from './routes/deprecation.ts';
import { routeModules } from './routes/index.ts';

const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-methods': 'PUT, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '600',
};

function withCors(response: Response, request: Request): Response {
  const origin = request.headers.get('origin');
  // Bearer keys travel in a header, never in cookies, so `*` is safe and simplest.
  response.headers.set('access-control-allow-origin', origin ?? '*');
  response.headers.append('vary', 'origin');
  for (const [k, v] of Object.entries(CORS_HEADERS)) response.headers.set(k, v);
  return response;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createApp(ctx: SandboxContext, extraRoutes: readonly Route[] = []) {
  const router = new Router();
  for (const routes of routeModules) router.add(...routes);
  router.add(...extraRoutes);

  async function dispatch(request: Request, url: URL): Promise<Response> {
    const method = request.method.toUpperCase();
    const path = url.pathname;

    if (!path.startsWith('/sandbox/')) {
      const fault = ctx.faults.take(method, path);
      if (fault?.kind === 'drop') return Response.error();
      if (fault?.kind === 'error') {
        return new ProviderError(fault.status, 'INTERNAL_ERROR', 'Injected fault').toResponse();
      }
      if (fault?.kind === 'latency') await sleep(fault.delayMs);
    }

    const match = router.match(method, path);
    if (match.kind === 'not-found')
      return new ProviderError(404, 'NOT_FOUND', 'Resource not found').toResponse();
    if (match.kind === 'method-not-allowed') {
      if (method === 'OPTIONS' && match.cors)
        return withCors(new Response(null, { status: 204 }), request);
      return json(
        { error_code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on ${path}` },
        405,
        { allow: match.allowed.join(', ') },
      );
    }
    const { route, params } = match;
    const denied = authorize(request, route.access, ctx.config);
    let response: Response;
    if (denied) {
      response = denied;
    } else {
      try {
        response = await route.handler({ request, url, params, ctx, origin: url.origin });
      } catch (error) {
        if (error instanceof ProviderError) {
          response = error.toResponse();
        } else {
          // Only the error's name: a message could echo request data.
          ctx.log(
            `internal error on ${method} ${route.path}: ${error instanceof Error ? error.name : 'unknown'}`,
          );
          response = new ProviderError(
            500,
            'INTERNAL_ERROR',
            'Internal sandbox error',
          ).toResponse();
        }
      }
    }
    if (route.deprecated) {
      response = withDeprecation(response, route.deprecated, params, url, ctx.config);
    }
    return route.cors ? withCors(response, request) : response;
  }

  return async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const response = await dispatch(request, url);
    // Path only: query strings and bodies stay out of the log.
    const ms = (performance.now() - started).toFixed(1);
    ctx.log(
      `${request.method} ${url.pathname} ${response.type === 'error' ? 'dropped' : response.status} ${ms}ms`,
    );
    return response;
  };
}
