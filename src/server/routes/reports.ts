/**
 * `POST /reports`: where a payment page's Content-Security-Policy reports its violations
 * (`pageSecurityHeaders()` points `report-uri` and `report-to` here) and where the widget
 * reports a file of its own that failed its integrity check. Browsers send these without
 * waiting for the answer, from any page that names the route, so it takes what it can and
 * asks nothing back: a body of at most 64 KiB in one of the browsers' formats, counted
 * against the client's `reportsPerClient` limit; violations of pages outside
 * `allowedOrigins` are left out, and the rest go to page/reports.ts. 204 whatever was kept.
 */
import { Hono } from 'hono';
import { limitBody, readJsonBody } from '../../http/body.ts';
import { empty } from '../../http/json.ts';
import { PaymentHandlerError } from '../errors.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { type PageViolation, violationsIn } from '../page/violations.ts';
import type { HandlerEnv } from '../types.ts';
import type { RouteDeps } from './context.ts';

/** The largest report body read. */
export const REPORTS_MAX_BYTES = 64 * 1024;

/**
 * The body's format by its content type: `application/csp-report` (report-uri's), a list of
 * reports (`application/reports+json`, the Reporting API's; `text/plain`, the widget's beacon;
 * `application/json`); anything else 415.
 */
function formatOf(contentType: string | undefined): 'csp-report' | 'reports' {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/csp-report') return 'csp-report';
  if (type === 'application/reports+json' || type === 'application/json' || type === 'text/plain') {
    return 'reports';
  }
  throw new PaymentHandlerError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'A report must be application/csp-report, application/reports+json or application/json',
    'content-type',
  );
}

/** Whether the violation is on one of the merchant's pages (others are someone else's, or made up). */
function onAllowedPage(allowed: ReadonlySet<string>, v: PageViolation): boolean {
  try {
    return allowed.has(new URL(v.documentUrl).origin);
  } catch {
    return false;
  }
}

export function reportRoutes(deps: RouteDeps): Hono<HandlerEnv> {
  const { config, limits, violations } = deps;
  const app = new Hono<HandlerEnv>();
  app.post(
    '/reports',
    async (c, next) => {
      formatOf(c.req.header('content-type'));
      await next();
    },
    limitBody(REPORTS_MAX_BYTES),
    rateLimit({ limiter: limits, perClient: 'reportsPerClient' }),
    async (c) => {
      const format = formatOf(c.req.header('content-type'));
      const body = await readJsonBody(c.req.raw);
      if (body.kind === 'invalid') {
        throw new PaymentHandlerError(400, 'INVALID_JSON', body.message, 'body');
      }
      if (body.kind === 'json') {
        const found = violationsIn(format, body.value);
        await violations.receive(found.filter((v) => onAllowedPage(config.allowedOrigins, v)));
      }
      return empty(204);
    },
  );
  return app;
}
