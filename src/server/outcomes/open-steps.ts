/**
 * A checkout's open step: the last `next_step` the provider answered a payment attempt with
 * (a 3DS challenge, a bank's page), kept while the checkout is pending, so that a widget
 * loaded again mid-step (the shopper reloaded during the challenge, or came back from the
 * bank's page with the back button) shows that step again instead of a blank form for a
 * checkout that may be approved at any moment. `GET /checkouts/:id` answers it beside the
 * checkout (routes/checkouts.ts).
 *
 * Nothing secret is kept or given out: the step is what the process answer already gave the
 * browser (3-D Secure's browser messages carry no card number), and it goes to whoever may
 * read the checkout itself. It is kept for `OPEN_STEP_TTL_MS`, written again by each attempt
 * that opens a step, and removed by an attempt that opens none and once the checkout is final.
 * The store may be away: the step is a convenience, so no payment waits on it or fails by it.
 */
import * as z from 'zod/mini';
import {
  type NextStep,
  NextStepSchema,
  type PaymentMethodId,
  PaymentTypeSchema,
} from '../../schemas/index.ts';
import { parseJson } from '../../shared/record.ts';
import { unsafeNextStepField } from '../provider/public.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { RecordStore } from '../store/types.ts';
import type { Logger } from '../types.ts';

/**
 * How long an open step is kept: 20 minutes. Longer than the widget reads a checkout back
 * while a step is open (15 minutes) and than issuers and banks keep their pages open (about
 * 10 to 15), so a step is never dropped while it can still be answered; short enough that an
 * abandoned one is soon gone.
 */
export const OPEN_STEP_TTL_MS = 20 * 60 * 1000;

/**
 * A payment on its way to the provider, kept in the step's place: a widget loaded meanwhile (a
 * reload or Back during "Processing…", or WebKit cutting the request off for its back-forward
 * cache) gets the checkout once it is answered, not a form to pay again. Waited for 10 s at
 * most (the provider's own time limit), gone after 30 s if its instance died.
 */
const PAYING = 'paying';
const PAYING_TTL_MS = 30_000;
const PAYING_WAIT_MS = 10_000;

/** A step as the widget needs it again: the method of the attempt, and the provider's step. */
export interface OpenStep {
  payment_type: PaymentMethodId;
  next_step: NextStep;
}

const OpenStepSchema = z.object({
  payment_type: PaymentTypeSchema,
  next_step: NextStepSchema,
});

export interface OpenSteps {
  /** Keeps `step` as checkout `id`'s open step, over any before it. */
  keep(id: string, step: OpenStep): Promise<void>;
  /** Checkout `id`'s open step, `PAYING`, or undefined when none is kept (or the store is away). */
  find(id: string): Promise<OpenStep | typeof PAYING | undefined>;
  /**
   * A payment of checkout `id` is on its way to the provider, until `keep` or `close`: marked,
   * over any step, unless another payment's mark is there. Answers whether this one marked it:
   * a payment the provider refuses closes only its own (another tab's Pay meanwhile, refused,
   * leaves the first payment's mark for a reload to wait on).
   */
  paying(id: string): Promise<boolean>;
  /** Resolves once no payment of checkout `id` is on its way (or after `PAYING_WAIT_MS`). */
  paid(id: string): Promise<void>;
  /** Checkout `id` has no open step any more (a new attempt, or its outcome). */
  close(id: string): Promise<void>;
}

/** The store's records, or (for a store that keeps none) this instance's memory. */
const recordsOf = (records: RecordStore | undefined): RecordStore => records ?? createMemoryStore();

/** The kept text as a step, or undefined when it is not one this handler would give out. */
function decode(text: string | undefined): OpenStep | typeof PAYING | undefined {
  // None kept, the usual answer for a pending checkout: no parse, no validation error built.
  if (text === undefined || text === PAYING) return text;
  const parsed = OpenStepSchema.safeParse(parseJson(text));
  // Checked again on the way out, as when it came in: the store is not the provider.
  if (!parsed.success || unsafeNextStepField(parsed.data.next_step) !== undefined) return undefined;
  return parsed.data;
}

export function createOpenSteps(deps: {
  /** The store's records; undefined when it keeps none. */
  records: RecordStore | undefined;
  /** Scopes the keys when several handlers (merchants) share one store. */
  merchantCode: string;
  log: Logger;
}): OpenSteps {
  const records = recordsOf(deps.records);
  const keyOf = (id: string) => `step:${deps.merchantCode}:${id}`;
  const warn = (what: string, id: string, error: unknown) =>
    deps.log({
      level: 'warn',
      message: `open step: the store could not ${what} it: ${String(error)}`,
      checkoutId: id,
    });
  const find = async (id: string) => {
    try {
      return decode(await records.read(keyOf(id)));
    } catch (error) {
      warn('read', id, error);
      return undefined;
    }
  };
  return {
    find,
    async keep(id, step) {
      try {
        await records.write(keyOf(id), JSON.stringify(step), OPEN_STEP_TTL_MS);
      } catch (error) {
        warn('keep', id, error);
      }
    },
    async paying(id) {
      try {
        const kept = await records.read(keyOf(id));
        return kept !== PAYING && (await records.swap(keyOf(id), kept, PAYING, PAYING_TTL_MS));
      } catch (error) {
        warn('keep', id, error);
        return false;
      }
    },
    async paid(id) {
      const end = Date.now() + PAYING_WAIT_MS;
      while (Date.now() < end && (await find(id)) === PAYING) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async close(id) {
      try {
        await records.remove(keyOf(id));
      } catch (error) {
        warn('remove', id, error);
      }
    },
  };
}
