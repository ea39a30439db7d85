/**
 * A checkout's own result page travels in its `redirect_url`, as `?result_page=` on the
 * handler's `/return`: the provider keeps it with the checkout, so any instance, any time
 * later and with the store away, sends the shopper back to it, and a basket's next checkout
 * after a decline carries it on. `GET /return` is reachable by anyone with any query, so the
 * page is checked again there by the same rule before it is followed.
 */
import { allowedResultPage } from '../options/result-pages.ts';

const PARAM = 'result_page';

/** The checkout's `redirect_url`: the handler's `/return`, with the page when there is one. */
export function returnUrlFor(publicUrl: string, resultPage: string | undefined): string {
  const url = `${publicUrl}/return`;
  return resultPage === undefined ? url : `${url}?${PARAM}=${encodeURIComponent(resultPage)}`;
}

/** The page a checkout's `redirect_url` carries, as it was resolved. */
export function resultPageOf(redirectUrl: string | null | undefined): string | undefined {
  if (redirectUrl == null) return undefined;
  try {
    return new URL(redirectUrl).searchParams.get(PARAM) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Whether two result pages are one: `https://shop.example` and `https://shop.example/` are. */
export function sameResultPage(a: string | undefined, b: string | undefined): boolean {
  const normal = (page: string | undefined) => {
    if (page === undefined || page.startsWith('/')) return page;
    try {
      return new URL(page).href;
    } catch {
      return page;
    }
  };
  return normal(a) === normal(b);
}

/** The page `GET /return` was asked to send the shopper to, when it may. */
export function requestedResultPage(
  query: (name: string) => string | undefined,
  allowedOrigins: ReadonlySet<string>,
): { page: string | undefined; refused: boolean } {
  const asked = query(PARAM);
  if (asked === undefined) return { page: undefined, refused: false };
  const page = allowedResultPage(asked, allowedOrigins);
  return { page, refused: page === undefined };
}
