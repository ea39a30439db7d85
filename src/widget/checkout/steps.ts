// A next step on screen, for the checkout controller: the step part's runner run in the
// element's next-step area, this tab's memory of it (words.ts `stepOf`), and the step a
// checkout left open when the widget loads again (resume.ts). The controller keeps the
// lifecycle and says how the step reads the checkout back, speaks and leaves the page.

import type {
  Action,
  ChallengeMode,
  CheckoutView,
  NextStepContext,
  Outcome,
} from '../../next-step/types.ts';
import type { PartsController } from '../parts/controller.ts';
import type { PartModules } from '../parts/types.ts';
import { stepOf } from './words.ts';

/** The part that runs next steps. */
export type StepPart = PartModules['step'];

/** What of the element a step needs. */
interface StepHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly updateComplete: Promise<boolean>;
}

/** The step `answer` left open, to show again instead of the form, if any. */
export async function stepLeftOpen(
  answer: CheckoutView,
  parts: PartsController,
  mode: ChallengeMode,
): Promise<{ step: StepPart; action: Action } | undefined> {
  const here = stepOf(String(answer.id));
  if (!answer.next_step && !here) return undefined;
  const step = await parts.load('step').catch(() => undefined);
  const action = step?.reopen(answer, mode, here);
  return step && action ? { step, action } : undefined;
}

/**
 * Shows `action` for checkout `id` in the element's next-step area (the lifecycle already
 * says `step`), with `context` there, and resolves with its outcome, or with undefined once
 * `context.signal` stopped it.
 */
export async function showStep(
  step: StepPart,
  action: Action,
  host: StepHost,
  id: string,
  context: Omit<NextStepContext, 'container'>,
): Promise<Outcome | undefined> {
  const { signal } = context;
  // This tab's memory of the step: an offered one by the page it leads to.
  if (action.kind !== 'waiting')
    stepOf(id, action.kind === 'offer' ? action.step.kind : action.kind);
  await host.updateComplete;
  const container = host.renderRoot.querySelector<HTMLElement>('.next-step');
  if (!container || signal.aborted) return undefined;
  try {
    const outcome = await step.runAction(action, { ...context, container });
    // Cancelled, or refused: this step is not shown again in this tab.
    if (outcome.kind === 'cancelled' || outcome.kind === 'refused')
      stepOf(id, `${stepOf(id)}:left`);
    return signal.aborted ? undefined : outcome;
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  }
}
