// The provider-route faults (`POST /sandbox/faults`, simulation/faults.ts) as middleware
// inside the request log, so that a dropped or failed request is logged like any other:
// latency waits, then the route answers; `error` answers the fault's status instead of the
// route; `drop` answers `Response.error()`, which the node adapter turns into a closed socket.
// Never on the `/sandbox/` control surface itself.

import type { MiddlewareHandler } from 'hono';
import type { SandboxEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { takeFault } from '../simulation/faults.ts';
import { rawPath } from './record-requests.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const injectFaults: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const { store } = c.env.sandbox;
  // The common case, every provider request: no fault at all, one size check.
  if (store.count('faults') === 0) return next();
  const path = rawPath(c.req.url);
  const fault = path.startsWith('/sandbox/') ? undefined : takeFault(store, c.req.method, path);
  if (fault?.kind === 'drop') return Response.error();
  if (fault?.kind === 'error') {
    return new ApiError(fault.status, 'INTERNAL_ERROR', 'Injected fault').toResponse();
  }
  if (fault?.kind === 'latency') await sleep(fault.delayMs);
  await next();
};
