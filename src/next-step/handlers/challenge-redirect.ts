import { methodOf, refusal, type StepHandler } from '../handler.ts';
import { leave } from '../navigate.ts';

/**
 * Full-page 3DS: the whole page goes to the issuer's challenge page, which
 * comes back through the checkout's redirect_url. Every payload key travels as
 * a form field because the ACS expects exactly the PaReq/MD/TermUrl post.
 */
export const challengeRedirect: StepHandler<'challenge-redirect'> = async ({ nextStep }, ctx) => {
  const { url = '' } = nextStep;
  const payload = nextStep.payload ?? {};
  return (
    refusal({ 'next_step.url': url, 'next_step.payload.TermUrl': payload.TermUrl }) ??
    leave(ctx, { url, method: methodOf(nextStep.method), fields: { ...payload } })
  );
};
