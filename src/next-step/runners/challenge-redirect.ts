import { leave } from '../navigate.ts';
import { methodOf, refusal, type StepRunner } from '../runner.ts';

/**
 * Full-page 3DS: the whole page goes to the issuer's challenge page, which
 * comes back through the checkout's redirect_url. Every payload key travels as
 * a form field because the ACS expects exactly the PaReq/MD/TermUrl post.
 */
export const challengeRedirect: StepRunner<'challenge-redirect'> = async ({ nextStep }, ctx) => {
  const { url = '' } = nextStep;
  const payload = nextStep.payload ?? {};
  return (
    refusal({ 'next_step.url': url, 'next_step.payload.TermUrl': payload.TermUrl }) ??
    leave(ctx, { url, method: methodOf(nextStep.method), fields: { ...payload } })
  );
};
