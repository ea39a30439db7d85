// What a browser says went wrong on a payment page, read from either way browsers send it
// (`application/csp-report`, and the Reporting API's `application/reports+json`) and from the
// widget's own integrity failures (that shape, `type: 'payment-widget-integrity'`), into one
// bounded record: queries and fragments cut from every URL (a page's query may name a
// checkout or carry a token), every field capped, and what browser extensions cause left out.

import { INTEGRITY_REPORT } from '../../shared/integrity-report.ts';
import { isRecord } from '../../shared/record.ts';

/** One violation on a payment page, as `hooks.onPageViolation` receives it. */
export interface PageViolation {
  /**
   * `csp`: the page's Content-Security-Policy blocked something (or, report-only, would
   * have); `integrity`: a file of the widget was not the one built, and was not run.
   */
  kind: 'csp' | 'integrity';
  /** The page, without its query or fragment. */
  documentUrl: string;
  /**
   * What was blocked: a URL without its query, or the browser's word for what has none
   * (`inline`, `eval`, `wasm-eval`, `trusted-types-policy`, `trusted-types-sink`).
   */
  blockedUrl: string;
  /** The directive it broke (`script-src-elem`); `integrity` for an integrity failure. */
  directive: string;
  /** `enforce`: blocked; `report`: a report-only policy's, not blocked. */
  disposition: 'enforce' | 'report';
  /** The script that did it, without its query, and where in it, when the browser says. */
  sourceFile?: string;
  line?: number;
  column?: number;
  /**
   * The first characters of the blocked inline script (browsers send 40), or for Trusted
   * Types the sink and its value's first 40 (`HTMLScriptElement src|https://cdn.example/x.js`,
   * the URL without its query). Kept up to 100.
   */
  sample?: string;
  /** For `integrity`: the `sha384-...` the file should have had. */
  integrity?: string;
}

/** Caps on what a report may put in a record, log line or hook call. */
export const VIOLATION_CAPS = { url: 512, directive: 48, sample: 100, integrity: 100 } as const;

/** At most this many reports from one body (the Reporting API batches them). */
export const MAX_REPORTS_PER_BODY = 50;

/**
 * Schemes of what browser extensions inject or load: their reports say nothing about the
 * page (`chrome-extension`, and Safari's masked URLs of an extension's script).
 */
const EXTENSION =
  /^(?:chrome|moz|safari|safari-web|ms-browser)-extension(?::|$)|^webkit-masked-url:/i;

const cap = (value: string, max: number): string =>
  value.length > max ? value.slice(0, max) : value;

/** A URL without its query and fragment, capped; a bare word (`inline`) as it is. */
function cleanUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const cut = value.replace(/[?#].*$/s, '');
  return cap(cut.replace(/\p{Cc}/gu, ''), VIOLATION_CAPS.url);
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' ? cap(value.replace(/\p{Cc}/gu, ' '), max) : undefined;

/**
 * A Trusted Types sample names the sink and what was given to it (`HTMLScriptElement
 * src|https://cdn.example/x.js?k=1`): a URL given loses its query and fragment, as every other
 * URL of a report does.
 */
function cleanSample(sample: string | undefined): string | undefined {
  return sample?.replace(/^([^|]*\|\s*(?:[a-z][a-z\d+.-]*:)?\/\/[^?#\s]*)[?#].*$/is, '$1');
}

const whole = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9
    ? value
    : undefined;

/** The fields of one CSP violation, whichever way they were spelt. */
interface Fields {
  documentUrl: unknown;
  blockedUrl: unknown;
  directive: unknown;
  disposition: unknown;
  sourceFile: unknown;
  line: unknown;
  column: unknown;
  sample: unknown;
}

function violation(
  kind: PageViolation['kind'],
  fields: Fields,
  integrity?: unknown,
): PageViolation | undefined {
  const documentUrl = cleanUrl(fields.documentUrl);
  const blockedUrl = cleanUrl(fields.blockedUrl) ?? 'inline';
  const sourceFile = cleanUrl(fields.sourceFile);
  const directive = text(fields.directive, VIOLATION_CAPS.directive)?.split(' ')[0];
  if (documentUrl === undefined || directive === undefined) return undefined;
  if (EXTENSION.test(blockedUrl) || (sourceFile !== undefined && EXTENSION.test(sourceFile))) {
    return undefined;
  }
  const found: PageViolation = {
    kind,
    documentUrl,
    blockedUrl,
    directive,
    disposition: fields.disposition === 'report' ? 'report' : 'enforce',
  };
  const line = whole(fields.line);
  const column = whole(fields.column);
  const sample = cleanSample(text(fields.sample, VIOLATION_CAPS.sample));
  const hash = text(integrity, VIOLATION_CAPS.integrity);
  if (sourceFile !== undefined) found.sourceFile = sourceFile;
  if (line !== undefined) found.line = line;
  if (column !== undefined) found.column = column;
  if (sample !== undefined) found.sample = sample;
  if (hash !== undefined) found.integrity = hash;
  return found;
}

/** `{ "csp-report": { "document-uri", "blocked-uri", ... } }`: report-uri's format. */
function fromCspReport(body: unknown): PageViolation[] {
  const report = isRecord(body) ? body['csp-report'] : undefined;
  if (!isRecord(report)) return [];
  const found = violation('csp', {
    documentUrl: report['document-uri'],
    blockedUrl: report['blocked-uri'],
    directive: report['effective-directive'] ?? report['violated-directive'],
    disposition: report.disposition,
    sourceFile: report['source-file'],
    line: report['line-number'],
    column: report['column-number'],
    sample: report['script-sample'],
  });
  return found ? [found] : [];
}

/** One report of the Reporting API's list (`{ type, url, body }`), when it is one of ours. */
function fromReport(report: unknown): PageViolation | undefined {
  if (!isRecord(report) || !isRecord(report.body)) return undefined;
  const { body } = report;
  if (report.type === 'csp-violation') {
    return violation('csp', {
      documentUrl: body.documentURL ?? report.url,
      blockedUrl: body.blockedURL,
      directive: body.effectiveDirective,
      disposition: body.disposition,
      sourceFile: body.sourceFile,
      line: body.lineNumber,
      column: body.columnNumber,
      sample: body.sample,
    });
  }
  if (report.type === INTEGRITY_REPORT) {
    return violation(
      'integrity',
      {
        documentUrl: report.url,
        blockedUrl: body.blockedURL,
        directive: 'integrity',
        disposition: 'enforce',
        sourceFile: undefined,
        line: undefined,
        column: undefined,
        sample: undefined,
      },
      body.integrity,
    );
  }
  return undefined;
}

/**
 * The violations in a report body, by its format: `csp-report` (report-uri's), or a list of
 * reports (the Reporting API's, and the widget's, which sends one). Other report types
 * (deprecations, interventions) and extensions' noise are left out, and so is what a body
 * holds past MAX_REPORTS_PER_BODY.
 */
export function violationsIn(format: 'csp-report' | 'reports', body: unknown): PageViolation[] {
  if (format === 'csp-report') return fromCspReport(body);
  const reports = Array.isArray(body) ? body : [body];
  return reports
    .slice(0, MAX_REPORTS_PER_BODY)
    .map(fromReport)
    .filter((v): v is PageViolation => v !== undefined);
}

/**
 * What makes two reports the same, for counting each once a day: all but where in the file.
 * The sample included: a Trusted Types violation's blocked "URL" is always
 * `trusted-types-sink`, and only its sample tells one injected script from another.
 */
export function violationKey(v: PageViolation): string {
  return [
    v.kind,
    v.directive,
    v.disposition,
    v.documentUrl,
    v.blockedUrl,
    v.sourceFile ?? '',
    v.sample ?? '',
  ].join('\n');
}
