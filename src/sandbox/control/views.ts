// What a developer looks at through the control surface (the sandbox's own key, or the
// dashboard's session), and the clock:
//   GET  /sandbox/overview              everything the dashboard shows of the state
//   GET  /sandbox/events                server-sent events naming what changed (live.ts)
//   GET  /sandbox/clock                 { now, offsetMs }
//   POST /sandbox/clock                 { advanceMs } moves the sandbox clock forward
//   GET  /sandbox/requests?request_id=  the last 1,000 requests, newest first
//   POST /sandbox/session               trades the key for the dashboard's session cookie
// The reads are kept out of the request log: the dashboard repeats them after every change.

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { REQUEST_ID_PATTERN } from '../../shared/request-id.ts';
import { baseUrl, type RouteContext, type Routes, type SandboxEnv } from '../context.ts';
import { invalid, readApiJson } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { unrecorded } from '../middleware/record-requests.ts';
import { parse } from '../validate.ts';
import { overview } from './overview.ts';

/** Ten years: far enough for any expiry, near enough to stay a valid date. */
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3_600_000;

const ClockBodySchema = z.object({
  advanceMs: z.int().check(z.minimum(0), z.maximum(MAX_ADVANCE_MS)),
});

const clockJson = (c: RouteContext) => ({
  now: c.env.sandbox.clock.iso(),
  offsetMs: c.env.sandbox.clock.offsetMs,
});

async function advanceClock(c: RouteContext): Promise<Response> {
  const body = parse(ClockBodySchema, await readApiJson(c.req.raw));
  c.env.sandbox.clock.advance(body.advanceMs);
  return json(clockJson(c));
}

function listRequests(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const url = new URL(c.req.url);
  const id = url.searchParams.get('request_id');
  if (id !== null && id !== '' && !REQUEST_ID_PATTERN.test(id)) {
    throw invalid('request_id', 'request_id must be 1 to 64 letters, digits or . _ : -');
  }
  return json(ctx.requests.list(id === null || id === '' ? undefined : id));
}

/** The dashboard's sign-in when the sandbox is not on loopback; the key itself is not kept. */
function openSession(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  return empty(204, { 'set-cookie': ctx.sessions.open(), 'cache-control': 'no-store' });
}

const control = allow(CONTROL);

export const viewRoutes: Routes = new Hono<SandboxEnv>()
  .get('/sandbox/overview', unrecorded, control, (c) => json(overview(c.env.sandbox, baseUrl(c))))
  .get('/sandbox/events', unrecorded, control, (c) => c.env.sandbox.live.stream())
  .get('/sandbox/clock', unrecorded, control, (c) => json(clockJson(c)))
  .post('/sandbox/clock', control, capBody, advanceClock)
  .get('/sandbox/requests', unrecorded, control, listRequests)
  .post('/sandbox/session', control, capBody, openSession);
