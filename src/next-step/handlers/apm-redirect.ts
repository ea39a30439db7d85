import { firstUnsafe, type Handler, methodOf, refused } from '../handler.ts';
import { navigateTop } from '../navigate.ts';
import { withQuery } from '../url.ts';

/**
 * iDEAL, Bancontact, BLIK: the bank's page takes over and returns through the
 * checkout's redirect_url. The provider gives a ready `full` URL; without one
 * the URL is built from `url` + payload (as a query, unless the step says POST).
 */
export const apmRedirect: Handler<'apm-redirect'> = async ({ nextStep }, ctx) => {
  const navigate = ctx.navigate ?? navigateTop;
  if (nextStep.full !== undefined) {
    if (firstUnsafe({ 'next_step.full': nextStep.full }) !== undefined) {
      return refused('next_step.full');
    }
    ctx.onChallenge({ mode: 'redirect', url: nextStep.full });
    navigate({ url: nextStep.full, method: 'GET', fields: {} });
    return { kind: 'navigating' };
  }
  const { url } = nextStep;
  if (url === undefined) return refused('next_step.url');
  if (firstUnsafe({ 'next_step.url': url }) !== undefined) return refused('next_step.url');
  const payload = nextStep.payload ?? {};
  if (nextStep.method !== undefined && methodOf(nextStep.method) === 'POST') {
    ctx.onChallenge({ mode: 'redirect', url });
    navigate({ url, method: 'POST', fields: { ...payload } });
  } else {
    const target = withQuery(url, payload);
    ctx.onChallenge({ mode: 'redirect', url: target });
    navigate({ url: target, method: 'GET', fields: {} });
  }
  return { kind: 'navigating' };
};
