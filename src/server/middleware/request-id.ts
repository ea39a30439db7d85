/**
 * `X-Request-Id` on every request, as hono's own `middleware/request-id` does it, with the
 * project's rule (src/shared/request-id.ts): the caller's id when it is a short token (the
 * widget sends one per call; a proxy may have set one), else a new one. Kept as
 * `c.var.requestId` for the log and every provider call the request makes, and sent back on
 * the answer, errors included.
 */
import type { MiddlewareHandler } from 'hono';
import { replaceAnswer, withHeaders } from '../../http/json.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from '../../shared/request-id.ts';
import type { HandlerEnv } from '../types.ts';

export interface RequestIdOptions {
  /** The header read from the request and set on the answer; default `x-request-id`. */
  headerName?: string;
}

export function requestId(options: RequestIdOptions = {}): MiddlewareHandler<HandlerEnv> {
  const header = (options.headerName ?? REQUEST_ID_HEADER).toLowerCase();
  return async function requestId(c, next) {
    const id = requestIdFrom(c.req.header(header));
    c.set('requestId', id);
    await next();
    replaceAnswer(c, withHeaders(c.res, { [header]: id }));
  };
}
