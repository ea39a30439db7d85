// Small shared pieces of the dashboard's templates: amounts, times and status badges.

import { html, type TemplateResult } from 'lit';
import { formatMoney } from '../../shared/money.ts';

/** An amount with its currency's symbol and minor unit, the same in every browser. */
export function amount(value: number, currency: string): string {
  return formatMoney('en', value, currency);
}

/** A time of the sandbox clock, in the browser's zone, with seconds. */
export function time(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

const TONES: Record<string, 'ok' | 'bad' | 'wait' | 'off'> = {
  PAID: 'ok',
  SUCCESSFUL: 'ok',
  delivered: 'ok',
  paired: 'ok',
  successful: 'ok',
  active: 'ok',
  FAILED: 'bad',
  failed: 'bad',
  dropped: 'bad',
  expired: 'bad',
  PENDING: 'wait',
  pending: 'wait',
  processing: 'wait',
  waiting_for_card: 'wait',
  waiting_for_pin: 'wait',
};

/** A status as a coloured label; the text itself says the status, colour only repeats it. */
export function badge(status: string): TemplateResult {
  return html`<span class="badge ${TONES[status] ?? 'off'}">${status.replaceAll('_', ' ')}</span>`;
}

/** How far the sandbox clock runs ahead, e.g. "+1 d 2 h". */
export function offset(ms: number): string {
  if (ms <= 0) return 'real time';
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}`);
  }
  return `+${parts.join(' ') || `${ms} ms`} ahead`;
}

/** What a webhook attempt came to: the status, or why there was none. */
export function attemptOutcome(a: { status?: number; error?: string }): string {
  return a.status !== undefined ? `HTTP ${a.status}` : (a.error ?? 'no answer');
}
