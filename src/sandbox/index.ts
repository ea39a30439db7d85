// `payment-widget/sandbox`: a local, stateful simulator of the provider's payments API.
// `createSandbox()` resolves once it listens on 127.0.0.1; `handle()` is the same app
// without a socket.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, REQUEST_TIMEOUTS } from '../http/client-errors.ts';
import { providerErrorBody } from '../http/errors.ts';
import { toNodeListener } from '../http/node.ts';
import { newRequestId, REQUEST_ID_PATTERN } from '../shared/request-id.ts';
import { isLoopbackHost } from '../shared/url.ts';
import { builtScript, litModule } from './control/dashboard-script.ts';
import { createSandboxCore, type SandboxCoreOptions } from './core.ts';
import { type FsyncPolicy, isFsyncPolicy, Journal } from './state/journal.ts';

export interface SandboxOptions extends SandboxCoreOptions {
  /** Default 0 (a random free port); the CLI defaults to 4010. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /**
   * Keep state across restarts in this file: every change is written to it before the answer
   * that reports it leaves (state/journal.ts).
   */
  dataFile?: string;
  /**
   * When the data file's writes reach the disk: after each change (`always`), once a second
   * (`everysec`, the default) or when the operating system likes (`no`). A crash of the
   * process loses nothing in any of them; they differ on a crash of the machine.
   */
  fsync?: FsyncPolicy;
  /** Where problems that do not stop the sandbox go (a torn last line of the data file); stderr by default. */
  warn?: (line: string) => void;
  /**
   * Whether the dashboard (`GET /` in a browser) asks for the API key. Default: not on a
   * loopback host (the default one), where loading the page signs it in; yes on any other.
   */
  dashboardAsksForKey?: boolean;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  apiKey: string;
  merchantCode: string;
  /** The same app without a socket. */
  handle(request: Request): Promise<Response>;
  /**
   * Forget every checkout, customer and transaction; drop faults, webhook deliveries and the
   * request log; put the clock back.
   */
  reset(): void;
  /** Stop listening, cancel webhooks and write pending data. */
  close(): Promise<void>;
}

/**
 * The id of a request arriving on a socket: the caller's when it is one valid X-Request-Id,
 * else a new one written into the request in place of what came (Node's parsed headers, which
 * joins repeated ones, and the raw list), so that the app reads the same id.
 */
export function adoptRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)) return incoming;
  const id = newRequestId();
  req.headers['x-request-id'] = id;
  const raw = req.rawHeaders;
  if (incoming !== undefined) {
    for (let i = raw.length - 2; i >= 0; i -= 2) {
      const name = raw[i]!;
      if (name.length === 12 && name.toLowerCase() === 'x-request-id') raw.splice(i, 2);
    }
  }
  raw.push('X-Request-Id', id);
  return id;
}

function formatUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Starts the provider's sandbox on `options.host` (127.0.0.1) and `options.port` (any free
 * one): its REST API, webhooks, test cards and dashboard, with no account and no network.
 * Resolves once it listens; `close()` stops it.
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const fsync = options.fsync ?? 'everysec';
  if (!isFsyncPolicy(fsync)) {
    throw new Error('payment-sandbox: fsync must be always, everysec or no');
  }
  const { dataFile } = options;
  const core = createSandboxCore(options, {
    dashboardAsksForKey: options.dashboardAsksForKey ?? !isLoopbackHost(host),
    dashboardScript: builtScript,
    litModules: litModule,
    persist:
      dataFile === undefined
        ? undefined
        : (store) => {
            const journal = new Journal(dataFile, store, {
              fsync,
              warn: options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
            });
            journal.open();
            return journal;
          },
  });
  const { ctx, handle } = core;

  // Node's bare 400 for an HTTP/1.1 request without Host is left to the adapter, which refuses
  // it in JSON (as it does an Expect other than 100-continue, passed on below). A client too
  // slow to send its request is cut off (REQUEST_TIMEOUTS), answered 408 in JSON.
  const server = createServer({ requireHostHeader: false, ...REQUEST_TIMEOUTS });
  answerClientErrors(server, providerErrorBody, newRequestId);
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) => {
      // Nothing will be served: the data file is closed as it would be on `close()`.
      core.close();
      reject(error);
    };
    server.once('error', refused);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = formatUrl(address);
  ctx.sessions.bindPort(address.port);
  const onSocket = { requestIdOnSocket: true } as const;
  const listener = toNodeListener((request) => handle(request, onSocket), {
    errorBody: providerErrorBody,
    hostname: new URL(url).host,
  });
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    // Settled before the app runs, which reads the same id from the request; set on Node's
    // response, it goes out with every answer, the adapter's own refusals included.
    res.setHeader('x-request-id', adoptRequestId(req));
    listener(req, res);
  };
  server.on('request', answer);
  server.on('checkExpectation', answer);
  // A CONNECT, which Node hangs up on unless the server takes it: refused in JSON (405).
  server.on('connect', listener);

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey: ctx.config.apiKey,
    merchantCode: ctx.config.merchantCode,
    handle: (request) => handle(request),
    reset: ctx.reset,
    close() {
      closing ??= new Promise<void>((resolve) => {
        core.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
