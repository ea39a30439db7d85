/**
 * The `logger` option: the merchant's, or the console when there is none, wrapped so that no
 * entry carries the API key and a broken logger never breaks a payment.
 */
import type { LogEntry, Logger } from '../types.ts';
import { optionalFunction } from './check.ts';

/** Without a logger, each problem reaches the console at most once in this long. */
const CONSOLE_EVERY_MS = 60_000;

/** The problems whose line says a hook may have run twice (outcomes/problems.ts). */
const RUN_TWICE = new Set(['lease-taken-over', 'lease-lost']);

/** How many held-back checkouts a line names; it counts the others. */
const NAMED_AT_MOST = 10;

/**
 * The logger when the merchant gives none: warnings and errors to the console, so a
 * refused origin or a store outage is never silent, and a flood stays one line a minute per
 * problem (an entry's `problem`, else its message with the ids and numbers taken out), with its
 * cause; a hook that may have run twice, once a minute per checkout. The checkouts of the lines
 * held back are named on that problem's next line, so none goes unnamed. Page violations are
 * limited before they get here, and each is said.
 */
function consoleLogger(): Logger {
  const lastSaid = new Map<string, number>();
  // Per problem, the checkouts whose line was held back since it was last said.
  const heldBack = new Map<string, Set<string>>();
  return (entry) => {
    if (entry.level === 'info') return;
    // A page violation reaches the log once a day per distinct violation (page/reports.ts):
    // each is its own alert, never held back behind another one said this minute.
    const kind =
      entry.problem === 'page-violation'
        ? entry.message
        : typeof entry.problem === 'string'
          ? entry.problem
          : entry.message.replace(/\S*\d\S*/g, '#');
    // A line saying an order may have been fulfilled twice is that order's to check: said for
    // each checkout, never held back behind another order's.
    const checkout = typeof entry.checkoutId === 'string' ? entry.checkoutId : undefined;
    const order = RUN_TWICE.has(String(entry.problem)) && checkout ? ` ${checkout}` : '';
    const key = `${entry.level} ${kind}${order}`;
    const now = Date.now();
    if (now - (lastSaid.get(key) ?? Number.NEGATIVE_INFINITY) < CONSOLE_EVERY_MS) {
      // An order's own problem (its hook threw, say): named on this problem's next line.
      const held = heldBack.get(key) ?? new Set<string>();
      if (checkout !== undefined && held.size < 1_000) heldBack.set(key, held.add(checkout));
      return;
    }
    // Bounded: the handler's own kinds of problem, a few dozen, and the day's page violations.
    if (lastSaid.size > 1_000) {
      lastSaid.clear();
      heldBack.clear();
    }
    lastSaid.set(key, now);
    const held = heldBack.get(key);
    heldBack.delete(key);
    if (checkout !== undefined) held?.delete(checkout);
    const where = [entry.checkoutId, entry.requestId].filter((v) => typeof v === 'string');
    // From a log line to its trace (an OpenTelemetry SDK is recording).
    if (entry.traceId !== undefined)
      where.push(`trace_id=${entry.traceId} span_id=${entry.spanId}`);
    // The cause, when the message does not hold it already: which store or service failed.
    const cause =
      typeof entry.error === 'string' && !entry.message.includes(entry.error)
        ? `. Cause: ${entry.error}`
        : '';
    const named = [...(held ?? [])].slice(0, NAMED_AT_MOST);
    const more =
      held === undefined || held.size === 0
        ? ''
        : `; and ${held.size} more since the last such line: ${named.join(', ')}${held.size > named.length ? ', ...' : ''}`;
    const line = `payment-widget: ${entry.message}${cause}${where.length > 0 ? ` (${where.join(', ')})` : ''}${more}`;
    if (entry.level === 'error') console.error(line);
    else console.warn(line);
  };
}

/**
 * Control characters written as escapes (`\u000a`, `\u001b`): a request's path or a
 * provider's message (a 404's `/payments/x%0Apaid: ...`) can hold them, and in a text log a
 * line break starts a line the sender wrote, an escape sequence rewrites the terminal.
 */
const oneLine = (text: string): string =>
  text.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export interface ResolvedLogger {
  /** Whether the merchant gave a logger (the access log is written only then). */
  given: boolean;
  /** Replaces the API key wherever it appears in a text we did not write. */
  redact(text: string): string;
  /** The logger with every string redacted and on one line; never throws. */
  log(entry: LogEntry): void;
}

export function resolveLogger(value: Logger | undefined, apiKey: string): ResolvedLogger {
  const given = optionalFunction('logger', value);
  const logger = given ?? consoleLogger();
  // Last line of defence: no text we did not write ourselves goes out unchecked.
  const redact = (text: string) =>
    apiKey && text.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text;
  return {
    given: given !== undefined,
    redact,
    log(entry) {
      const safe: LogEntry = { ...entry };
      for (const [key, value] of Object.entries(safe)) {
        if (typeof value === 'string') safe[key] = oneLine(redact(value));
      }
      try {
        logger(safe);
      } catch {
        // A broken logger must not break payments.
      }
    },
  };
}
