import { firstUnsafe, type Handler, methodOf, refused } from '../handler.ts';
import { navigateTop } from '../navigate.ts';

/**
 * Full-page 3DS: the whole page goes to the issuer's challenge page, which
 * comes back through the checkout's redirect_url. Every payload key travels as
 * a form field because the ACS expects exactly the PaReq/MD/TermUrl post.
 */
export const challengeRedirect: Handler<'challenge-redirect'> = async ({ nextStep }, ctx) => {
  const { url } = nextStep;
  const payload = nextStep.payload ?? {};
  if (url === undefined) return refused('next_step.url');
  const unsafe = firstUnsafe({
    'next_step.url': url,
    'next_step.payload.TermUrl': payload.TermUrl,
  });
  if (unsafe !== undefined) return refused(unsafe);
  ctx.onChallenge({ mode: 'redirect', url });
  (ctx.navigate ?? navigateTop)({ url, method: methodOf(nextStep.method), fields: { ...payload } });
  return { kind: 'navigating' };
};
