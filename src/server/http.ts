/**
 * Small Web-standard HTTP helpers for the handler: JSON answers, the body cap
 * and the content-type rule. Nothing here knows about payments.
 */
import { PaymentHandlerError } from './errors.ts';

/** Bodies the widget sends are a few hundred bytes; 16 KiB leaves room and stops floods. */
export const MAX_BODY_BYTES = 16 * 1024;

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  // Checkout state changes under the browser's feet; a cached answer would lie.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...baseHeaders, ...headers } });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers: Record<string, string> = {},
): Response {
  const error: { code: string; message: string; field?: string } = { code, message };
  if (field !== undefined) error.field = field;
  return json(status, { error }, headers);
}

function isJsonType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

/**
 * Reads a JSON body, refusing a non-JSON content type (415) and stopping at
 * `limit` bytes while the stream is read (413), so an oversize body is never
 * buffered whole nor parsed.
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJsonType(request.headers.get('content-type'))) {
    throw new PaymentHandlerError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The body must be JSON (Content-Type: application/json)',
      'content-type',
    );
  }
  const tooLarge = () =>
    new PaymentHandlerError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The body is larger than ${limit} bytes`,
      'body',
      {
        connection: 'close',
      },
    );
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }

  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PaymentHandlerError(400, 'INVALID_JSON', 'The body is not valid UTF-8', 'body');
  }
  if (text.trim() === '') {
    throw new PaymentHandlerError(400, 'MISSING', 'The request body is empty', 'body');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PaymentHandlerError(400, 'INVALID_JSON', 'The body is not valid JSON', 'body');
  }
}
