// The sandbox as a Web `Request -> Response` function, on Hono, the way the companion handler
// is built: middleware around every request (the request log, then fault injection), the
// route modules (routes.ts) mounted as sub-apps, each route carrying its own middleware (its
// access rule, body cap, CORS, deprecation headers), and errors in the provider's error shape.
// No sockets here; `index.ts` serves it through the shared node adapter.

import { Hono } from 'hono';
import { HttpError, providerErrorBody } from '../http/errors.ts';
import { notFoundOrMethodNotAllowed } from '../http/method-not-allowed.ts';
import type { Routes, SandboxBindings, SandboxContext, SandboxEnv } from './context.ts';
import { ApiError, apiErrorResponse } from './errors.ts';
import { injectFaults } from './middleware/faults.ts';
import { recordRequests } from './middleware/record-requests.ts';
import { routeModules } from './routes.ts';

/** How `handle` was called: from the socket, which sets `X-Request-Id` on Node's response. */
export interface HandleOptions {
  requestIdOnSocket?: boolean;
}

/** The app; `extraRoutes` are mounted after the route modules (index.ts's dashboard). */
export function createApp(ctx: SandboxContext, extraRoutes: readonly Routes[] = []) {
  const app = new Hono<SandboxEnv>();
  app.use(recordRequests, injectFaults);
  for (const routes of [...routeModules, ...extraRoutes]) app.route('/', routes);

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

  // One env per way of calling: nothing is allocated per request for it.
  const fromSocket: SandboxBindings = { sandbox: ctx, requestIdOnSocket: true };
  const direct: SandboxBindings = { sandbox: ctx, requestIdOnSocket: false };
  return async function handle(request: Request, options?: HandleOptions): Promise<Response> {
    const env = options?.requestIdOnSocket === true ? fromSocket : direct;
    if (request.method !== 'HEAD') return app.fetch(request, env);
    // Hono answers HEAD from GET itself but cannot copy a dropped connection's answer.
    const response = await app.fetch(
      new Request(request.url, { method: 'GET', headers: request.headers }),
      env,
    );
    return response.status === 0 ? response : new Response(null, response);
  };
}
