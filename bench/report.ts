// The bench's printing: tables in Markdown, medians with their spread, verdicts against a
// floor, and the shapes every phase reads from the environment.
import { median } from './load.ts';
import type { TargetRun } from './throughput.ts';

export function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

export function table(headers: string[], rows: (string | number)[][]): void {
  const cells = rows.map((row) => row.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (row: string[]) =>
    `| ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(line(headers));
  console.log(
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const row of cells) console.log(line(row));
  console.log();
}

export const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '-');
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

/** Median of a few numbers and their spread, e.g. `5,512 (5,310-5,790)`. */
export function spread(values: readonly number[], format: (n: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const lo = sorted[0] ?? Number.NaN;
  const hi = sorted.at(-1) ?? Number.NaN;
  return `${format(median(sorted))} (${format(lo)}-${format(hi)})`;
}

export const rate = (n: number): string => Math.round(n).toLocaleString('en-US');
export const times = (n: number): string => `${n.toFixed(2)}x`;

/** Servers under load in turns: BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS. */
export function roundsShape(rounds: number, seconds = 5) {
  return {
    connections: intFromEnv('BENCH_CONNECTIONS', 10),
    seconds: intFromEnv('BENCH_SECONDS', seconds),
    rounds: intFromEnv('BENCH_ROUNDS', rounds),
    warmSeconds: 2,
  };
}

export function targetTable(targets: readonly TargetRun[], cpu: string, own?: string): void {
  table(
    [
      'target',
      'req/s',
      cpu,
      ...(own === undefined ? [] : [own]),
      'p50 ms',
      'p99 ms',
      'non-2xx/errors',
    ],
    targets.map((t) => [
      t.name,
      spread(t.rates, rate),
      spread(t.cpuPerRequest, (n) => n.toFixed(0)),
      ...(own === undefined ? [] : [spread(t.ownCpuPerRequest, (n) => n.toFixed(0))]),
      spread(t.p50, (n) => n.toFixed(1)),
      spread(t.p99, (n) => n.toFixed(1)),
      t.bad,
    ]),
  );
}

export function voidIfBad(targets: readonly TargetRun[]): void {
  if (targets.some((t) => t.bad > 0)) {
    throw new Error('some requests failed or answered non-2xx: the numbers above are void');
  }
}

export const verdict = (values: readonly number[], floor: number): string =>
  median(values) >= floor ? `meets >= ${floor.toFixed(2)}x` : `BELOW ${floor.toFixed(2)}x`;
