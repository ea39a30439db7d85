// Small HTTP helpers shared by every route module: the provider's error shape,
// JSON/HTML responses and body reading with a size cap.

/** Error codes the provider uses (see CONTRACT §5); the sandbox adds none of its own. */
export type ProviderErrorCode =
  | 'MISSING'
  | 'INVALID'
  | 'NOT_AUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'DUPLICATED_CHECKOUT'
  | 'CHECKOUT_PROCESSED'
  | 'CUSTOMER_ALREADY_EXISTS'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL_ERROR';

/**
 * Thrown anywhere inside a handler; the app turns it into `{ error_code, message, param? }`.
 * Throwing keeps validation code linear instead of threading Responses back up.
 */
export class ProviderError extends Error {
  readonly status: number;
  readonly code: ProviderErrorCode;
  readonly param: string | undefined;

  constructor(status: number, code: ProviderErrorCode, message: string, param?: string) {
    super(message);
    this.name = 'ProviderError';
    this.status = status;
    this.code = code;
    this.param = param;
  }

  toResponse(headers?: HeadersInit): Response {
    const body: Record<string, string> = { error_code: this.code, message: this.message };
    if (this.param !== undefined) body.param = this.param;
    return json(body, this.status, headers);
  }
}

export const missing = (param: string, message = `Missing parameter ${param}`) =>
  new ProviderError(400, 'MISSING', message, param);
export const invalid = (param: string, message = `Invalid parameter ${param}`) =>
  new ProviderError(400, 'INVALID', message, param);
export const notFound = (message = 'Resource not found') =>
  new ProviderError(404, 'NOT_FOUND', message);

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  h.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { status, headers: h });
}

export function noContent(headers?: HeadersInit): Response {
  return new Response(null, { status: 204, headers });
}

/** 64 KiB is far above any real request of this API and small enough to refuse floods early. */
export const BODY_LIMIT = 64 * 1024;

async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > BODY_LIMIT) throw tooLarge();
  const text = await request.text();
  // Content-Length can be absent (chunked), so the length is checked again after reading.
  if (new TextEncoder().encode(text).byteLength > BODY_LIMIT) throw tooLarge();
  return text;
}

const tooLarge = () =>
  new ProviderError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${BODY_LIMIT} bytes`);

/** Reads a JSON body; an empty body reads as `{}` so that "all fields optional" routes work. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await readText(request);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(400, 'INVALID', 'Request body is not valid JSON', 'body');
  }
}

/** Reads an `application/x-www-form-urlencoded` body (the sandbox's HTML pages post these). */
export async function readForm(request: Request): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(request));
}
