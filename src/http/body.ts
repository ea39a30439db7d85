/**
 * Request bodies: a size cap enforced before anything is parsed (Hono's body-limit
 * middleware: Content-Length when given, else counted while the stream is read), the JSON
 * content-type rule, and reading a JSON or form body without throwing on bad input.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HttpError } from './errors.ts';

/**
 * Refuses a body over `maxBytes` with 413 `PAYLOAD_TOO_LARGE` before any route reads it. A
 * body without Content-Length (chunked) is read here: one cut short (the client hung up, or
 * Node's requestTimeout ended it) is the 400 a route gives one, not an unexpected error.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      // The rest of an oversize upload is not worth reading: close once answered.
      throw new HttpError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The body is larger than ${maxBytes} bytes`,
        'body',
        { connection: 'close' },
      );
    },
  });
  return async (c, next) => {
    let read = false;
    try {
      return await limit(c, () => {
        read = true;
        return next();
      });
    } catch (error) {
      throw read || error instanceof HttpError ? error : cutShort();
    }
  };
}

/** What a body the client did not send to its end is refused with. */
const cutShort = () =>
  new HttpError(400, 'INVALID', 'The body could not be read to its end', 'body');

/** `application/json` or any `application/*+json`, parameters ignored. */
function isJsonType(contentType: string | null | undefined): boolean {
  if (contentType == null) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

/** Refuses a body that does not say it is JSON with 415, naming the content-type. */
export const requireJsonType: MiddlewareHandler = async (c, next) => {
  if (!isJsonType(c.req.header('content-type'))) {
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The body must be JSON (Content-Type: application/json)',
      'content-type',
    );
  }
  await next();
};

/** What a JSON body turned out to be; each API decides what an empty one means. */
type JsonBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'empty' }
  | { kind: 'invalid'; message: string };

async function readBytes(request: Request): Promise<Uint8Array> {
  try {
    return new Uint8Array(await request.arrayBuffer());
  } catch {
    // A client that hung up mid-body: nobody will read the answer, but it must stay a 4xx.
    throw cutShort();
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A form body's bad bytes become U+FFFD rather than refusing the body. */
const utf8Lenient = new TextDecoder('utf-8');

/** Reads and parses a JSON body (call it after `limitBody`). */
export async function readJsonBody(request: Request): Promise<JsonBody> {
  const bytes = await readBytes(request);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'invalid', message: 'The body is not valid UTF-8' };
  }
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid', message: 'The body is not valid JSON' };
  }
}

/** Reads an `application/x-www-form-urlencoded` body (call it after `limitBody`). */
export async function readFormBody(request: Request): Promise<URLSearchParams> {
  return new URLSearchParams(utf8Lenient.decode(await readBytes(request)));
}
