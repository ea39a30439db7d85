/**
 * Where shoppers land after a full-page flow: the `resultPages` option, checked at start, and
 * a checkout's own `resultPage` from `resolveCheckout`, checked when it is resolved. Both are
 * followed by `GET /return`, which anyone can call with any query: so a page is only ever a
 * site path or (a checkout's own) a URL on an allowed origin, never an open redirect.
 */
import { group, httpUrl, isSitePath, refuse } from './check.ts';
import type { ResultPages } from './types.ts';

export function resolveResultPages(value: ResultPages | undefined): Required<ResultPages> {
  const pages = group('resultPages', value, ['success', 'failure', 'pending']);
  if (pages === undefined || pages.success === undefined || pages.failure === undefined) {
    throw new TypeError(
      'createPaymentHandler: resultPages is required: { success, failure, pending? }, the pages GET /return sends shoppers to',
    );
  }
  const page = (name: keyof ResultPages, given: unknown): string => {
    if (typeof given === 'string' && isSitePath(given)) return given;
    if (typeof given === 'string' && /^https?:/i.test(given))
      return httpUrl(`resultPages.${name}`, given).href;
    return refuse(`resultPages.${name}`, 'a path (/thanks) or an absolute http(s) URL', given);
  };
  const failure = page('failure', pages.failure);
  return {
    success: page('success', pages.success),
    failure,
    pending: pages.pending === undefined ? failure : page('pending', pages.pending),
  };
}

/**
 * A checkout's `resultPage` as `GET /return` may follow it, or undefined when it may not: a
 * site path, or an http(s) URL on one of the allowed origins.
 */
export function allowedResultPage(
  value: unknown,
  allowedOrigins: ReadonlySet<string>,
): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000) return undefined;
  if (isSitePath(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return allowedOrigins.has(url.origin) ? url.href : undefined;
}
