// An incident during payments, for the topology-*.test.ts files that have one (one Redis
// stopped, a primary killed): card payments through the four instances of topology.ts, two at
// a time, with every webhook dropped, the store cut off after the first few. Each order paid
// meanwhile must be fulfilled within two intervals after the store is back, through the sweep
// of the provider's list; the report says how long the slowest waited, and, for a test that
// finds it late, why.
import { until } from '../../shared/until.ts';
import { type Cluster, reconciledAfter } from './cluster.ts';
import { dropWebhooks, paidThrough } from './shopper.ts';
import { INTERVAL_MS, inParallel, SLACK_MS } from './topology.ts';

export interface Incident {
  /** Cuts the store off (stops it, kills its primary). */
  start(): Promise<void>;
  /** Resolves once the store is back (restarted, a replica promoted), with when it was. */
  over(): Promise<number>;
}

export interface IncidentReport {
  ids: string[];
  /** Paid while the store was away. */
  during: string[];
  /** When the store was back. */
  backAt: number;
  /**
   * The longest wait from when the store was back, or from its payment when that came later,
   * to the end of a checkout's onPaid.
   */
  latestMs: number;
  /**
   * The checkout that waited `latestMs`: when it was paid and what the instances logged about
   * it, for the message of a test that finds it late.
   */
  latest: string;
  /** The longest and the median time a payment's PUT took to answer. */
  slowestPaymentMs: number;
  medianPaymentMs: number;
}

/**
 * `total` card payments through the instances (two at a time), webhooks dropped; the
 * incident starts once `before` are paid. Resolves once the store is back and every onPaid
 * has finished, or fails after four intervals plus slack.
 */
export async function paymentsThrough(
  c: Cluster,
  incident: Incident,
  total: number,
  before: number,
): Promise<IncidentReport> {
  await dropWebhooks(c, 10_000);
  let down = false;
  let cut: Promise<void> | undefined;
  const during: string[] = [];
  const paidAt = new Map<string, number>();
  const took: number[] = [];
  const ids = await inParallel(total, 2, async (i) => {
    if (i === before) {
      cut = incident.start().then(() => {
        down = true;
      });
      await cut;
    }
    const started = Date.now();
    const id = await paidThrough(c.instances[i % c.instances.length]!);
    paidAt.set(id, Date.now());
    took.push(Date.now() - started);
    if (down) during.push(id);
    return id;
  });
  await cut;
  const backAt = await incident.over();
  await until(
    () => `every onPaid (${JSON.stringify(c.tally.counts(ids))})`,
    () => c.tally.allFinished(ids),
    INTERVAL_MS * 4 + SLACK_MS * 2,
  );
  await reconciledAfter(
    c,
    ids,
    c.instances.filter((i) => i.alive),
  );
  await dropWebhooks(c, 0);
  const waited = (id: string) =>
    c.tally.finished.get(id)![0]!.at - Math.max(backAt, paidAt.get(id)!);
  const last = ids.reduce((a, b) => (waited(b) > waited(a) ? b : a));
  const latestMs = waited(last);
  const logged = c.tally.problems
    .filter((p) => p.checkoutId === last || p.message.includes(last))
    .map((p) => `${p.instance} ${p.level}: ${p.message}`);
  const paidFromBack = paidAt.get(last)! - backAt;
  const ranOn = c.tally.finished.get(last)!.map((r) => r.instance);
  const latest =
    `${last}, paid ${Math.abs(paidFromBack)} ms ${paidFromBack < 0 ? 'before' : 'after'} the store was back` +
    `${during.includes(last) ? ' (paid while it was away)' : ''}; ` +
    `onPaid ran on ${ranOn}; ` +
    `logged about it: ${logged.length === 0 ? 'nothing' : logged.join(' | ')}`;
  took.sort((a, b) => a - b);
  return {
    ids,
    during,
    backAt,
    latestMs,
    latest,
    slowestPaymentMs: took.at(-1)!,
    medianPaymentMs: took[Math.floor(took.length / 2)]!,
  };
}
