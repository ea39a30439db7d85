import { withQuery } from '../../shared/url.ts';
import { leave } from '../navigate.ts';
import { methodOf, refusal, type StepRunner } from '../runner.ts';

/**
 * iDEAL, Bancontact, BLIK: the bank's page takes over and returns through the
 * checkout's redirect_url. The provider gives a ready `full` URL; without one
 * the URL is built from `url` + payload (as a query, unless the step says POST).
 */
export const apmRedirect: StepRunner<'apm-redirect'> = async ({ nextStep }, ctx) => {
  const { full, url = '' } = nextStep;
  if (full !== undefined) {
    return (
      refusal({ 'next_step.full': full }) ?? leave(ctx, { url: full, method: 'GET', fields: {} })
    );
  }
  const payload = nextStep.payload ?? {};
  return (
    refusal({ 'next_step.url': url }) ??
    (nextStep.method !== undefined && methodOf(nextStep.method) === 'POST'
      ? leave(ctx, { url, method: 'POST', fields: { ...payload } })
      : leave(ctx, { url: withQuery(url, payload), method: 'GET', fields: {} }))
  );
};
