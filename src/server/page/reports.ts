/**
 * What the handler does with the violations its `POST /reports` receives (routes/reports.ts):
 * each one counted (`payment_widget.page.violations`), and each distinct one, once a day,
 * logged and given to `hooks.onPageViolation`. "Once a day" is a counter per violation in the
 * shared store (one day's window), so instances that share the store say it once between
 * them; past DISTINCT_PER_DAY distinct violations in a day (a page flooded with noise, or
 * someone posting made-up reports) they are counted only.
 */
import type { Hit } from '../store/counting.ts';
import { METRIC } from '../telemetry/names.ts';
import type { Logger } from '../types.ts';
import type { PageViolation } from './violations.ts';
import { violationKey } from './violations.ts';

const DAY = 24 * 60 * 60 * 1000;

/** At most this many distinct violations are logged and given to the hook per day. */
export const DISTINCT_PER_DAY = 1000;

export interface ViolationReceiver {
  receive(violations: readonly PageViolation[]): Promise<void>;
}

/** A short, fixed-length key for a violation: the store never holds what a report says. */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)),
  );
  return Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The log line of a violation: what happened where, in a sentence. */
export function describeViolation(v: PageViolation): string {
  if (v.kind === 'integrity') {
    return `payment page ${v.documentUrl}: ${v.blockedUrl} did not match its integrity ${v.integrity ?? ''}, so the widget did not run it`;
  }
  const from =
    v.sourceFile === undefined
      ? ''
      : ` (from ${v.sourceFile}${v.line === undefined ? '' : `:${v.line}`})`;
  const verb = v.disposition === 'report' ? 'would block' : 'blocked';
  // What was injected, when the browser said: the sink and its value, or the script's start.
  const what = v.sample === undefined ? '' : ` (${JSON.stringify(v.sample)})`;
  return `payment page ${v.documentUrl}: its ${v.directive} ${verb} ${v.blockedUrl}${what}${from}`;
}

export function createViolationReceiver(deps: {
  hit: Hit;
  merchantCode: string;
  log: Logger;
  onPageViolation: ((report: PageViolation) => unknown) | undefined;
  /** Counts one violation (the metric). */
  count(kind: string, directive: string): void;
}): ViolationReceiver {
  const { hit, log, onPageViolation } = deps;
  // One hash tag for the merchant's counters (a Redis Cluster keeps them in one slot).
  const prefix = `reports:{${deps.merchantCode}}:`;

  /** Whether this is the violation's first report today, within the day's cap. */
  async function firstToday(v: PageViolation): Promise<boolean> {
    const key = `${prefix}seen:${await digest(violationKey(v))}`;
    const [seen] = await hit([{ key, windowMs: DAY }]);
    if (seen === undefined || seen.hits !== 1) return false;
    const [distinct] = await hit([{ key: `${prefix}distinct`, windowMs: DAY }]);
    if (distinct === undefined || distinct.hits <= DISTINCT_PER_DAY) return true;
    if (distinct.hits === DISTINCT_PER_DAY + 1) {
      log({
        level: 'warn',
        message: `payment page reports: more than ${DISTINCT_PER_DAY} distinct violations today; the rest are only counted (${METRIC.pageViolations})`,
        problem: 'page-violations-capped',
      });
    }
    return false;
  }

  async function receiveOne(v: PageViolation): Promise<void> {
    deps.count(v.kind, v.directive);
    if (!(await firstToday(v))) return;
    log({
      level: v.kind === 'integrity' ? 'error' : 'warn',
      message: describeViolation(v),
      problem: 'page-violation',
      violation: v,
    });
    if (onPageViolation === undefined) return;
    try {
      await onPageViolation(v);
    } catch (error) {
      log({
        level: 'error',
        message: `hooks.onPageViolation threw: ${error instanceof Error ? error.message : String(error)}`,
        problem: 'hook-threw',
      });
    }
  }

  return {
    async receive(violations) {
      for (const v of violations) await receiveOne(v);
    },
  };
}
