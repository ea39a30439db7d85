/**
 * A body a framework parsed before the handler saw it. Almost every Express app calls
 * `app.use(express.json())` (and `urlencoded()`) for all its routes: the parser reads the
 * request's stream to its end and leaves the result in `req.body`, so a handler mounted
 * behind it finds the stream empty. The adapter then hands the handler that body again, as
 * bytes of the type the request says (JSON for JSON, a form for a form, as sent for text or
 * a Buffer), through `rawBody`, which @hono/node-server reads in place of the stream (the
 * same property Google Cloud Functions and Firebase set). Fastify reads every JSON or text
 * body before its routes and keeps it on its own request (`request.body`), not on Node's
 * (`request.raw`): node.ts passes that body here. A stream read by something that left no
 * body behind cannot be recovered: that is refused with what to change.
 */
import type { IncomingMessage } from 'node:http';

/**
 * The request as a body parser leaves it. An intersection, not an interface that extends
 * IncomingMessage: a parser's types may declare these on IncomingMessage themselves
 * (@koa/bodyparser's `rawBody: string`), which an interface could not narrow to unknown.
 */
type ParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

export type ParsedBody =
  /** The stream is there to read (no parser read it): nothing to do. */
  | { kind: 'stream' }
  /** A parser read it and left `req.body`: these are its bytes again. */
  | { kind: 'bytes'; bytes: Buffer }
  /** Something read the stream and left nothing to rebuild it from. */
  | { kind: 'lost' };

const isJson = (type: string) =>
  type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);

/** `{ a: '1', b: ['2', '3'], c: { d: '4' } }` as `a=1&b=2&b=3&c[d]=4` (qs's extended form). */
function formOf(value: unknown, params = new URLSearchParams(), prefix = ''): URLSearchParams {
  if (typeof value !== 'object' || value === null) {
    if (prefix !== '') params.append(prefix, value == null ? '' : String(value));
    return params;
  }
  for (const [key, item] of Object.entries(value)) {
    const name = prefix === '' ? key : `${prefix}[${key}]`;
    if (Array.isArray(item)) {
      for (const one of item) formOf(one, params, name);
    } else {
      formOf(item, params, name);
    }
  }
  return params;
}

function bytesOf(body: unknown, contentType: string): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (contentType === 'application/x-www-form-urlencoded') {
    return Buffer.from(formOf(body).toString(), 'utf8');
  }
  return Buffer.from(JSON.stringify(body) ?? '', 'utf8');
}

/**
 * What the handler should read as this request's body: `parsed` is what a framework read
 * from it, by default Express's `req.body`.
 */
export function parsedBody(
  req: IncomingMessage,
  parsed: unknown = (req as ParsedRequest).body,
): ParsedBody {
  const request = req as ParsedRequest;
  // Read already by something (a body parser); a stream nobody touched is read as usual.
  const consumed = request.readableDidRead || request.readableEnded;
  if (!consumed || Buffer.isBuffer(request.rawBody)) return { kind: 'stream' };
  const method = request.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return { kind: 'stream' };
  if (parsed === undefined) return { kind: 'lost' };
  const contentType =
    (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // express.json() leaves {} for an empty body: the handler should see it empty, as sent.
  if (isJson(contentType) && request.headers['content-length'] === '0') {
    return { kind: 'bytes', bytes: Buffer.alloc(0) };
  }
  return { kind: 'bytes', bytes: bytesOf(parsed, contentType) };
}

/** Gives the handler the body again (see above): @hono/node-server reads `rawBody` first. */
export function restoreBody(req: IncomingMessage, bytes: Buffer): void {
  (req as { rawBody?: unknown }).rawBody = bytes;
}

export const LOST_BODY_MESSAGE =
  "The request body was read by a middleware before the payment handler, which left no req.body to read it from: mount the payment handler before that middleware, or let it leave req.body set (express.json() and express.urlencoded() do). In Fastify, hand the listener Fastify's request and reply, not their .raw: app.all('/payments/*', toNodeListener(payments)); in Koa and AdonisJS, ctx itself, not ctx.req or ctx.request.request; in hapi, request and h themselves";

export const FASTIFY_LOST_BODY_MESSAGE =
  'Fastify read the request body and left no request.body: a content type parser of the app read it without handing it on; have it call done(null, body) with what it read, or register it outside the scope of the payment routes';
