// `payment-widget/sandbox`: a local, stateful simulator of the provider's payments API.
// `createSandbox()` resolves once it listens on 127.0.0.1; `handle()` is the same app
// without a socket.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerErrorBody } from '../http/errors.ts';
import { toNodeListener } from '../http/node.ts';
import { createApp } from './app.ts';
import { Clock } from './simulation/clock.ts';
import { ALL_SCOPES, type SandboxConfig, type SandboxContext } from './context.ts';
import { FaultStore } from './simulation/faults.ts';
import { LiveUpdates } from './control/live.ts';
import { Persistence } from './state/journal.ts';
import { adoptRequestId, RequestLog } from './http/request-log.ts';
import { buildMerchant, type MerchantOverrides } from './seed/merchant.ts';
import { type ReaderOptions, resolveReaderTiming } from './seed/readers.ts';
import { isLoopbackHost, Sessions } from './http/sessions.ts';
import { Store } from './state/records.ts';
import { type WebhookOptions, Webhooks } from './simulation/webhooks.ts';

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
  /** Keep state across restarts in this JSON file. */
  dataFile?: string;
  /** Override parts of the seeded merchant profile, settings and bank accounts. */
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
  const store = new Store();
  const faults = new FaultStore();
  const live = new LiveUpdates();
  const requests = new RequestLog();
  let persistence: Persistence | undefined;
  const clock = new Clock(() => {
    persistence?.schedule();
    live.changed('clock');
  });
  const webhooks = new Webhooks(options.webhook ?? {}, clock, log, () =>
    live.changed('deliveries'),
  );
  if (options.dataFile) {
    persistence = new Persistence(options.dataFile, () => ({
      ...store.snapshot(),
      clockOffsetMs: clock.offsetMs,
    }));
    const loaded = persistence.load();
    if (loaded) {
      store.restore(loaded);
      clock.restore(loaded.clockOffsetMs ?? 0);
    }
  }

  const ctx: SandboxContext = {
    config,
    store,
    faults,
    webhooks,
    clock,
    requests,
    live,
    sessions: new Sessions(!(options.dashboardAsksForKey ?? !isLoopbackHost(host))),
    log,
    accessLog: options.log !== undefined,
    changed: () => {
      persistence?.schedule();
      live.changed('state');
    },
    reset: () => {
      store.clear();
      faults.clear();
      webhooks.clear();
      requests.clear();
      clock.reset();
      persistence?.schedule();
      live.changed('state');
      live.changed('webhook-faults');
      live.changed('requests');
    },
  };
  const handle = createApp(ctx);

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
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
        persistence?.flushPending();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
