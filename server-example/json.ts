/**
 * The shop's own JSON errors (its pages, files and in-person routes): the same
 * `{ error: { code, message, field? } }` shape as the payment handler's, with the shop's own
 * codes (`NOT_BUILT`, `SIMULATOR_UNREACHABLE`, ...), which are not the widget's to read.
 */
export function errorJson(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { error: field === undefined ? { code, message } : { code, message, field } },
    {
      status,
      headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
    },
  );
}

/** The same body for the 405 that Hono's method-not-allowed middleware answers. */
export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}
