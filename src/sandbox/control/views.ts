// What a developer looks at through the control surface (the sandbox's own key, or the
// dashboard's session), and the clock:
//   GET  /sandbox/overview              everything the dashboard shows of the state
//   GET  /sandbox/events                server-sent events naming what changed (live.ts)
//   GET  /sandbox/clock                 { now, offsetMs }
//   POST /sandbox/clock                 { advanceMs } moves the sandbox clock forward
//   GET  /sandbox/requests?request_id=  the last 1,000 requests, newest first
//   POST /sandbox/session               trades the key for the dashboard's session cookie
// The reads are kept out of the request log: the dashboard repeats them after every change.

import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { REQUEST_ID_PATTERN } from '../../http/request-id.ts';
import { invalid, readApiJson } from '../errors.ts';
import type { Route, RouteRequest } from '../middleware/route.ts';
import { CONTROL } from '../middleware/scopes.ts';
import { parse } from '../validate.ts';
import { overview } from './overview.ts';

/** Ten years: far enough for any expiry, near enough to stay a valid date. */
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3_600_000;

const ClockBodySchema = z.object({
  advanceMs: z.int().check(z.minimum(0), z.maximum(MAX_ADVANCE_MS)),
});

const clockJson = ({ ctx }: RouteRequest) => ({
  now: ctx.clock.iso(),
  offsetMs: ctx.clock.offsetMs,
});

async function advanceClock(req: RouteRequest): Promise<Response> {
  const body = parse(ClockBodySchema, await readApiJson(req.request));
  req.ctx.clock.advance(body.advanceMs);
  return json(clockJson(req));
}

function listRequests({ url, ctx }: RouteRequest): Response {
  const id = url.searchParams.get('request_id');
  if (id !== null && id !== '' && !REQUEST_ID_PATTERN.test(id)) {
    throw invalid('request_id', 'request_id must be 1 to 64 letters, digits or . _ : -');
  }
  return json(ctx.requests.list(id === null || id === '' ? undefined : id));
}

/** The dashboard's sign-in when the sandbox is not on loopback; the key itself is not kept. */
function openSession({ ctx }: RouteRequest): Response {
  return empty(204, { 'set-cookie': ctx.sessions.open(), 'cache-control': 'no-store' });
}

export const viewRoutes: Route[] = [
  {
    method: 'GET',
    path: '/sandbox/overview',
    access: CONTROL,
    recorded: false,
    handler: ({ ctx, origin }) => json(overview(ctx, origin)),
  },
  {
    method: 'GET',
    path: '/sandbox/events',
    access: CONTROL,
    recorded: false,
    handler: ({ ctx }) => ctx.live.stream(),
  },
  {
    method: 'GET',
    path: '/sandbox/clock',
    access: CONTROL,
    recorded: false,
    handler: (req) => json(clockJson(req)),
  },
  { method: 'POST', path: '/sandbox/clock', access: CONTROL, handler: advanceClock },
  {
    method: 'GET',
    path: '/sandbox/requests',
    access: CONTROL,
    recorded: false,
    handler: listRequests,
  },
  { method: 'POST', path: '/sandbox/session', access: CONTROL, handler: openSession },
];
