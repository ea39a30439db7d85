/**
 * The one node:http adapter: `toNodeListener(handler)` serves any Web
 * `(request: Request) => Promise<Response>` function, through @hono/node-server (it builds
 * the Request lazily, streams bodies, keeps every Set-Cookie header and survives clients
 * that hang up). Like every server on @hono/node-server it replaces the global `Request`
 * and `Response` with lighter subclasses of Node's own (its default; `instanceof` and every
 * method behave as before), which is most of its speed. What it adds: an empty answer always says `Content-Length: 0`, a
 * `Response.error()` hangs up without an answer (as a dropped connection would), and a
 * request that never reaches the handler (a malformed URL or Host, no Host in HTTP/1.1, an
 * Expect it cannot meet, a CONNECT) or that it fails (it throws) gets a JSON error, named by
 * its `X-Request-Id` as the handler's answers are (node-refusals.ts).
 *
 * @hono/node-server is imported when the first request arrives, not at the top: this module
 * is part of `payment-widget/server`, which must import (and bundle) where Node's built-in
 * modules do not exist (edge runtimes); only a Node server ever calls the listener.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { newRequestId, REQUEST_ID_HEADER } from '../shared/request-id.ts';
import { handlerErrorBody } from './errors.ts';
import { json } from './json.ts';
import { refusedHead, refuseTunnel, requestIdOf } from './node-refusals.ts';
import {
  FASTIFY_LOST_BODY_MESSAGE,
  LOST_BODY_MESSAGE,
  parsedBody,
  restoreBody,
} from './parsed-body.ts';

/**
 * What the listener passes a handler after the request, as every @hono/node-server does: the
 * Node request and response. The payment handler reads the client's address from it.
 */
export interface NodeEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export type FetchHandler = (request: Request, env?: NodeEnv) => Response | Promise<Response>;

export interface NodeListenerOptions {
  /** Builds the error body of the adapter's own answers. Default: `{ error: { code, message, field? } }`. */
  errorBody?: (
    code: 'MALFORMED_REQUEST' | 'METHOD_NOT_ALLOWED' | 'INTERNAL',
    message: string,
    field?: string,
  ) => unknown;
  /**
   * Host to assume when an HTTP/1.0 request has none. Default: refuse it with 400. An HTTP/1.1
   * one without Host is refused whatever this says.
   */
  hostname?: string;
}

// Node's own Response, captured before the adapter swaps in its lighter subclass.
const NativeResponse = globalThis.Response;

/**
 * Adds `Content-Length: 0` to an empty answer that lacks it. Answers built in this package
 * say it themselves (`empty()` in json.ts); this catches Node's own Responses, e.g. one a
 * handler passes on from `fetch`. The light ones are left alone: reading their headers or
 * body makes them build a full Response, which is most of what they save.
 */
function withEmptyLength(response: Response): Response {
  const { status } = response;
  if (Object.getPrototypeOf(response) !== NativeResponse.prototype) return response;
  if (status === 204 || status === 304 || response.body !== null) return response;
  if (response.headers.has('content-length')) return response;
  const headers = new Headers(response.headers);
  headers.set('content-length', '0');
  return new Response(null, { status, statusText: response.statusText, headers });
}

/**
 * A framework's request that wraps Node's as `raw` and keeps the body it parsed as `body`:
 * Fastify's (so NestJS's on its Fastify adapter).
 */
export interface WrappedRequest {
  raw: IncomingMessage;
  body?: unknown;
  /** The body's bytes as sent, where the app asked for them (NestJS's `rawBody: true`). */
  rawBody?: unknown;
}

export interface HapiRequest {
  raw: { req: IncomingMessage; res: ServerResponse };
  payload?: unknown;
}

export interface HapiToolkit {
  readonly abandon: symbol;
}

/** A framework's reply that wraps Node's as `raw`, let go with `hijack()`: Fastify's. */
export interface WrappedReply {
  raw: ServerResponse;
  hijack?: () => unknown;
}

// What the listener reads of Koa's context: the body a parser (koa-bodyparser,
// @koa/bodyparser) left on `request`, and the whole path (koa-mount cuts it off `req.url`).
/** Koa's context, as a middleware gets it. */
export interface KoaContext {
  req: IncomingMessage;
  res: ServerResponse;
  request: { body?: unknown; rawBody?: unknown };
  originalUrl: string;
  respond?: boolean;
}

/** AdonisJS's HttpContext: Node's request and response inside its own, the body it read as `raw()`. */
export interface AdonisContext {
  request: { request: IncomingMessage; raw(): string | null; body(): unknown };
  response: { response: ServerResponse };
}

// Koa's first: `Parameters<NodeRequestListener>` names the last.
/** The listener `toNodeListener` returns: node:http's arguments, Fastify's, hapi's, or Koa's or AdonisJS's context. */
export interface NodeRequestListener {
  (ctx: KoaContext, next?: unknown): void;
  (ctx: AdonisContext): Promise<unknown>;
  (request: HapiRequest, h: HapiToolkit): symbol;
  /** The server's `connect` event: refused (no tunnels here), where Node hangs up unanswered. */
  (req: IncomingMessage, socket: Duplex, head: Buffer): void;
  (req: IncomingMessage | WrappedRequest, res: ServerResponse | WrappedReply): void;
}

type AnyRequest = IncomingMessage | WrappedRequest | KoaContext | HapiRequest | AdonisContext;

/** Node's own request has `on`; a framework's wrapper of it (Fastify's) has `raw` instead. */
const isWrapped = (req: AnyRequest): req is WrappedRequest =>
  typeof (req as Partial<IncomingMessage>).on !== 'function' && 'raw' in req;
/** hapi's request: Node's request and response under `raw` (Fastify's `raw` is Node's request). */
const isHapi = (req: AnyRequest): req is HapiRequest =>
  isWrapped(req) && typeof (req.raw as Partial<IncomingMessage>).on !== 'function';
/** Koa's context: Node's request as `req`, Koa's own as `request`. */
const isKoa = (req: AnyRequest): req is KoaContext =>
  typeof (req as Partial<IncomingMessage>).on !== 'function' && 'req' in req && 'request' in req;
const isAdonis = (req: AnyRequest): req is AdonisContext =>
  typeof (req as Partial<AdonisContext>).request?.raw === 'function';
const isWrappedReply = (res: ServerResponse | WrappedReply | Duplex): res is WrappedReply =>
  typeof (res as Partial<ServerResponse>).writeHead !== 'function' && 'raw' in res;
/** What the server's `connect` event hands on: the socket itself. */
const isSocket = (res: ServerResponse | Duplex): res is Duplex =>
  typeof (res as Partial<ServerResponse>).writeHead !== 'function';

/**
 * Adapts a `(request: Request) => Promise<Response>` handler to node:http:
 * `http.createServer(toNodeListener(handler)).listen(3000, '127.0.0.1')`, or
 * `app.all('/payments/*splat', toNodeListener(handler))` in Express, before or after
 * `express.json()` and `express.urlencoded()`: a body a parser read already is taken from
 * `req.body` (parsed-body.ts). In Fastify (and NestJS on Fastify), a route handler as it is:
 * `app.all('/payments/*', toNodeListener(handler))` takes Fastify's request and reply, with
 * the body Fastify parsed, and hijacks the reply. Mounted with `app.use('/payments', ...)`,
 * it reads the whole path, which Express and NestJS keep in `req.originalUrl`. In Koa, hapi and AdonisJS, as is.
 */
export function toNodeListener(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): NodeRequestListener {
  let listener: BodyListener | undefined;
  let loading: Promise<BodyListener> | undefined;
  let toldLoad = false;
  return ((request: AnyRequest, reply?: unknown) => {
    let req: IncomingMessage;
    let res: ServerResponse;
    let parsed: unknown;
    let out = reply as ServerResponse | WrappedReply | Duplex;
    const hapi = isHapi(request);
    const wrapped = !hapi && isWrapped(request);
    const adonis = isAdonis(request);
    if (adonis) {
      // AdonisJS sends its own answer once the route's promise settles: the one returned below
      // settles once the handler's is sent. Its body parser keeps the text it read as `raw()`.
      req = request.request.request;
      out = request.response.response;
      parsed = request.request.raw() ?? request.request.body();
    } else if (hapi) {
      // hapi: the answer is written to Node's response; `h.abandon` stops hapi sending its own.
      ({ req, res: out } = request.raw);
      parsed = request.payload;
    } else if (wrapped) {
      req = request.raw;
      parsed = Buffer.isBuffer(request.rawBody) ? request.rawBody : request.body;
    } else if (isKoa(request)) {
      // Koa: the answer is written to Node's response, so Koa must not send its own. Its body
      // parsers keep the text they read as `rawBody`: those bytes, else the parsed body.
      request.respond = false;
      req = request.req;
      out = request.res;
      const { body, rawBody } = request.request;
      parsed = typeof rawBody === 'string' || Buffer.isBuffer(rawBody) ? rawBody : body;
      req.url = request.originalUrl;
    } else {
      req = request as IncomingMessage;
      parsed = (request as { body?: unknown }).body;
    }
    // `app.use('/payments', listener)` (Express, NestJS's app.use on either adapter) cuts the
    // prefix off `req.url` and keeps the whole path in `originalUrl`: the handler's routes are
    // whole paths under its basePath.
    const { originalUrl } = req as { originalUrl?: unknown };
    if (typeof originalUrl === 'string' && originalUrl !== req.url) req.url = originalUrl;
    if (isWrappedReply(out)) {
      // Fastify: the answer is written to Node's response, so Fastify must not send its own.
      out.hijack?.();
      res = out.raw;
    } else if (isSocket(out)) {
      refuseTunnel(req, out, options.errorBody ?? handlerErrorBody);
      return;
    } else {
      res = out;
    }
    const done = hapi ? (reply as HapiToolkit).abandon : undefined;
    if (listener !== undefined) {
      const sent = listener(req, res, parsed, wrapped);
      return adonis ? sent : done;
    }
    loading ??= buildListener(handler, options).then((built) => {
      listener = built;
      return built;
    });
    const sent = loading.then(
      (built) => built(req, res, parsed, wrapped),
      (error: unknown) => {
        // @hono/node-server is a dependency, loaded from node_modules: a broken install, or a
        // bundled server (ng build's dist/) deployed without node_modules. Said once.
        if (!toldLoad) console.error(`payment-widget: ${loadFailure(error)}`);
        toldLoad = true;
        if (res.headersSent) res.destroy();
        else
          res
            .writeHead(500, {
              'content-type': 'application/json',
              [REQUEST_ID_HEADER]: requestIdOf(req, res),
            })
            .end(INTERNAL_BODY);
      },
    );
    return adonis ? sent : done;
  }) as NodeRequestListener;
}

// Names, not literals: a bundler for an edge runtime leaves them out instead of failing on
// their `node:` imports (only a Node server ever calls the listener).
const NODE_SERVER = '@hono/node-server';
const NODE_SERVER_RESPONSE = '@hono/node-server/utils/response';

const INTERNAL_BODY = JSON.stringify(handlerErrorBody('INTERNAL', 'Internal error'));

const loadFailure = (error: unknown) =>
  `toNodeListener could not load ${NODE_SERVER} (${error instanceof Error ? error.message : String(error)}); ` +
  'payment-widget/server loads it from node_modules on the first request: a server bundled ' +
  "by a build (ng build, esbuild) needs the package's dependencies installed beside it";

/** node:http's listener, the body a framework parsed before it, and whether it was Fastify. */
type BodyListener = (
  req: IncomingMessage,
  res: ServerResponse,
  parsed: unknown,
  wrapped: boolean,
) => Promise<unknown> | undefined;

async function buildListener(
  handler: FetchHandler,
  options: NodeListenerOptions,
): Promise<BodyListener> {
  const [{ getRequestListener, RequestError }, { RESPONSE_ALREADY_SENT }] = await Promise.all([
    import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_SERVER) as Promise<
      typeof import('@hono/node-server')
    >,
    import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_SERVER_RESPONSE) as Promise<
      typeof import('@hono/node-server/utils/response')
    >,
  ]);
  const errorBody = options.errorBody ?? handlerErrorBody;
  const internal = (id: string) =>
    json(errorBody('INTERNAL', 'Internal error'), 500, { [REQUEST_ID_HEADER]: id });
  /**
   * The request being handed to @hono/node-server, while it is: it calls `errorHandler` for
   * one it cannot make a Request of (a malformed URL or Host) before its listener returns,
   * with the error alone. Its answer is named by this request's id, as every other is.
   */
  let handing: [IncomingMessage, ServerResponse] | undefined;
  // What was said on the console, each once: a lost body's fix, a thrown error's message.
  const told = new Set<string>();
  const listener = getRequestListener(
    async (request, env) => {
      const { incoming, outgoing } = env as NodeEnv;
      let response: Response;
      try {
        response = await handler(request, env as NodeEnv);
      } catch (error) {
        // A handler that throws (the payment handler answers its own errors; a wrapper of it
        // may not): a JSON 500, and the error said once, with that answer's id, so that the
        // developer learns what broke (a flood of one error is one line).
        const id = requestIdOf(incoming, outgoing);
        const said = error instanceof Error ? error.message : String(error);
        if (!told.has(said)) console.error(`payment-widget: the handler threw (${id}):`, error);
        if (told.size > 1_000) told.clear();
        told.add(said);
        return internal(id);
      }
      // Response.error() (status 0); `type` would make a light Response build a full one.
      if (response.status === 0) {
        (env.incoming as IncomingMessage).socket.destroy();
        return RESPONSE_ALREADY_SENT;
      }
      return withEmptyLength(response);
    },
    {
      ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
      errorHandler: (error) => {
        const id = handing === undefined ? newRequestId() : requestIdOf(...handing);
        return error instanceof RequestError
          ? json(
              errorBody('MALFORMED_REQUEST', 'The request line or Host header is malformed'),
              400,
              { [REQUEST_ID_HEADER]: id },
            )
          : internal(id);
      },
    },
  );
  return (req, res, parsed, wrapped) => {
    const refused = refusedHead(req);
    if (refused !== undefined) {
      const [status, message, field] = refused;
      res
        .writeHead(status, {
          'content-type': 'application/json',
          connection: 'close',
          [REQUEST_ID_HEADER]: requestIdOf(req, res),
        })
        .end(JSON.stringify(errorBody('MALFORMED_REQUEST', message, field)));
      return;
    }
    // Behind a body parser (express.json(), urlencoded(), Fastify's): the body it parsed, again.
    const body = parsedBody(req, parsed);
    if (body.kind === 'bytes') restoreBody(req, body.bytes);
    if (body.kind === 'lost') {
      const message = wrapped ? FASTIFY_LOST_BODY_MESSAGE : LOST_BODY_MESSAGE;
      if (!told.has(message)) console.error(`payment-widget: ${message}`);
      told.add(message);
      // The framework may have answered already (AdonisJS, handed ctx.request.request): said only.
      if (res.headersSent) return;
      res
        .writeHead(500, {
          'content-type': 'application/json',
          [REQUEST_ID_HEADER]: requestIdOf(req, res),
        })
        .end(JSON.stringify(errorBody('INTERNAL', message)));
      return;
    }
    handing = [req, res];
    try {
      return listener(req, res);
    } finally {
      handing = undefined;
    }
  };
}
