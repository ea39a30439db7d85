// A handler whose onPageViolation records what it gets, and a POST of a report to its
// /reports route from one client address: what the page-report tests share.
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { PageViolation } from '../../../src/server/index.ts';
import { type HandlerOverrides, makeHandler } from '../server/fixtures.ts';

/** The Reporting API's type; a CSP report-uri report is `application/csp-report`. */
export const REPORTS_JSON = 'application/reports+json';
export const CSP_REPORT = 'application/csp-report';

export function reporting(sb: Sandbox, overrides: HandlerOverrides = {}) {
  const seen: PageViolation[] = [];
  const h = makeHandler(sb, {
    hooks: { onPageViolation: (v) => void seen.push(v) },
    ...overrides,
  });
  const post = (body: unknown, contentType = REPORTS_JSON, raw?: string) =>
    h.handle(
      new Request('http://127.0.0.1/payments/reports', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: raw ?? JSON.stringify(body),
      }),
      { incoming: { socket: { remoteAddress: '127.0.0.7' } } },
    );
  return { ...h, seen, post };
}
