import { isRecord } from '../shared/record.ts';
import type { Action, ChallengeMode, CheckoutView, NextStepFields } from './types.ts';

export interface ActionContext {
  mode: ChallengeMode;
  hasRedirectUrl: boolean;
  /**
   * The step the payment's method expects (a card's 3-D Secure challenge, the bank's page
   * of iDEAL and the like, a boleto's voucher); undefined for a method the widget does not
   * know.
   */
  expects: 'challenge' | 'bank' | 'voucher' | undefined;
}

/**
 * Copies only the fields the runners read, with the types they expect, so a
 * runner never trips over a number where a string was promised. Payload
 * values are stringified when scalar: they end up as form fields anyway.
 */
function readNextStep(raw: Record<string, unknown>): NextStepFields {
  const step: NextStepFields = {};
  for (const key of ['url', 'method', 'full'] as const) {
    const value = raw[key];
    if (typeof value === 'string') step[key] = value;
  }
  if (isRecord(raw.payload)) {
    const payload: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw.payload)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        payload[key] = String(value);
    }
    step.payload = payload;
  }
  return step;
}

/**
 * Maps a process response (PUT {endpoint}/checkouts/:id) to what must happen
 * next, or undefined when the response needs no next step (a final 200) or is
 * not one we understand (the element then confirms or reports an error).
 */
export function actionFor(status: number, body: unknown, ctx: ActionContext): Action | undefined {
  if (!isRecord(body)) return undefined;
  if (status === 202 && isRecord(body.next_step)) {
    const nextStep = readNextStep(body.next_step);
    // A `full` URL is the provider's way of saying "just send the shopper
    // there": that is an APM redirect whatever method was chosen.
    if (ctx.expects === 'bank' || nextStep.full !== undefined) {
      return { kind: 'apm-redirect', nextStep };
    }
    if (ctx.expects !== 'challenge') return undefined;
    const redirect = ctx.mode === 'redirect' || (ctx.mode === 'auto' && ctx.hasRedirectUrl);
    return { kind: redirect ? 'challenge-redirect' : 'challenge-iframe', nextStep };
  }
  if (status === 200 && isRecord(body.boleto)) {
    return { kind: 'voucher', checkout: body as CheckoutView };
  }
  return undefined;
}
