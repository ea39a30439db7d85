// `payment-widget/sandbox`: a local, stateful simulator of the provider's payments API.
// `createSandbox()` resolves once it listens on 127.0.0.1; `handle()` is the same app
// without a socket.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerErrorBody } from '../http/errors.ts';
import { toNodeListener } from '../http/node.ts';
import { isLoopbackHost } from '../next-step/url.ts';
import { createApp } from './app.ts';
import { ALL_SCOPES, type SandboxConfig, type SandboxContext } from './context.ts';
import { LiveUpdates } from './control/live.ts';
import { buildMerchant, type MerchantOverrides } from './defaults/merchant.ts';
import { type ReaderOptions, resolveReaderTiming } from './defaults/readers.ts';
import { adoptRequestId, RequestLog } from './middleware/request-log.ts';
import { Sessions } from './middleware/sessions.ts';
import { Clock } from './simulation/clock.ts';
import { resumeStartWindows } from './simulation/readers.ts';
import { type WebhookOptions, Webhooks } from './simulation/webhooks.ts';
import { type FsyncPolicy, isFsyncPolicy, Journal } from './state/journal.ts';
import { Store } from './state/store.ts';

export interface SandboxOptions {
  /** Default 0 (a random free port); the CLI defaults to 4010. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 'sk_test_sandbox' (every scope). */
  apiKey?: string;
  /** Extra sk_test_ keys -> their scopes. */
  restrictedKeys?: Record<string, string[]>;
  /** Default 'MSANDBOX1'. */
  merchantCode?: string;
  /** Default 'merchant@example.com'. */
  payToEmail?: string;
  /** Merchant country (ISO 3166-1 alpha-2), default 'DE'; 'BR' allows installments, 'US' requires zip. */
  country?: string;
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
  /** Override parts of the default merchant profile, settings and bank accounts. */
  merchant?: MerchantOverrides;
  /** Timing of the simulated card readers (pairing delay, code lifetime, start window). */
  readers?: ReaderOptions;
  webhook?: WebhookOptions;
  /**
   * Whether the dashboard (`GET /` in a browser) asks for the API key. Default: not on a
   * loopback host (the default one), where loading the page signs it in; yes on any other.
   */
  dashboardAsksForKey?: boolean;
  /** Access log and webhook attempts; never receives card numbers, CVV or the API key. */
  log?: (line: string) => void;
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

function resolveConfig(options: SandboxOptions): SandboxConfig {
  const apiKey = options.apiKey ?? 'sk_test_sandbox';
  if (!apiKey.startsWith('sk_test_')) {
    throw new Error('payment-sandbox: the API key must start with sk_test_');
  }
  const keys = new Map<string, ReadonlySet<string>>([[apiKey, new Set(ALL_SCOPES)]]);
  for (const [key, scopes] of Object.entries(options.restrictedKeys ?? {})) {
    if (!key.startsWith('sk_test_')) {
      throw new Error(
        `payment-sandbox: restricted key ${key.slice(0, 8)}… must start with sk_test_`,
      );
    }
    keys.set(key, new Set(scopes));
  }
  const country = (options.country ?? 'DE').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) {
    throw new Error('payment-sandbox: country must be an ISO 3166-1 alpha-2 code, e.g. DE');
  }
  const identity = {
    merchantCode: options.merchantCode ?? 'MSANDBOX1',
    merchantName: 'Sandbox Merchant',
    payToEmail: options.payToEmail ?? 'merchant@example.com',
    country,
  };
  return {
    apiKey,
    keys,
    ...identity,
    merchant: buildMerchant(identity, options.merchant),
    readers: resolveReaderTiming(options.readers),
  };
}

function formatUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveConfig(options);
  const log = options.log ?? (() => {});
  const host = options.host ?? '127.0.0.1';
  const fsync = options.fsync ?? 'everysec';
  if (!isFsyncPolicy(fsync)) {
    throw new Error('payment-sandbox: fsync must be always, everysec or no');
  }
  const store = new Store();
  const live = new LiveUpdates();
  const requests = new RequestLog();
  const clock = new Clock(store);
  const webhooks = new Webhooks(options.webhook ?? {}, store, clock, log);
  // The journal subscribes first: a change is in the file before anyone else hears of it.
  const journal =
    options.dataFile === undefined
      ? undefined
      : new Journal(options.dataFile, store, {
          fsync,
          warn: options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
        });
  journal?.open();
  live.follow(store, requests);

  const ctx: SandboxContext = {
    config,
    store,
    webhooks,
    clock,
    requests,
    live,
    sessions: new Sessions(!(options.dashboardAsksForKey ?? !isLoopbackHost(host))),
    log,
    accessLog: options.log !== undefined,
    reset: () => {
      webhooks.clear();
      clock.cancelAll();
      requests.clear();
      store.reset();
    },
  };
  // What the data file held that was still under way goes on.
  webhooks.resume();
  resumeStartWindows(ctx);
  const handle = createApp(ctx);

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) => {
      // Nothing will be served: the data file is closed as it would be on `close()`.
      webhooks.close();
      clock.cancelAll();
      journal?.close();
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
  server.on('request', (req, res) => {
    // Settled before the app runs, which reads the same id from the request; set on Node's
    // response, it goes out with every answer, the adapter's own refusals included.
    res.setHeader('x-request-id', adoptRequestId(req));
    listener(req, res);
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey: config.apiKey,
    merchantCode: config.merchantCode,
    handle,
    reset: ctx.reset,
    close() {
      closing ??= new Promise<void>((resolve) => {
        webhooks.close();
        clock.cancelAll();
        live.close();
        journal?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
