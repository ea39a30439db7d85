// The sandbox without a socket or a file: the store, the clock, webhooks, the request log, the
// dashboard's sessions and live updates, and the app that answers a Web `Request`. It imports
// no `node:` module, so it runs wherever `fetch`, `crypto` and timers do (Node, a browser's
// Service Worker, a Worker). `index.ts` adds what needs Node: the socket, the data file
// (state/journal.ts) and the built dashboard script read from disk.

import { createApp, type HandleOptions } from './app.ts';
import { ALL_SCOPES, type SandboxConfig, type SandboxContext } from './context.ts';
import { type DashboardScript, dashboardRoutes, type LitModules } from './control/dashboard.ts';
import { LiveUpdates } from './control/live.ts';
import { buildMerchant, type MerchantOverrides } from './defaults/merchant.ts';
import { type ReaderOptions, resolveReaderTiming } from './defaults/readers.ts';
import { Clock } from './simulation/clock.ts';
import { resumeStartWindows } from './simulation/readers.ts';
import { type WebhookOptions, Webhooks } from './simulation/webhooks.ts';
import { RequestLog } from './state/request-log.ts';
import { Sessions } from './state/sessions.ts';
import { Store } from './state/store.ts';

/** What the simulated provider is: its keys, its merchant, its readers, its webhooks. */
export interface SandboxCoreOptions {
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
  /** Override parts of the default merchant profile, settings and bank accounts. */
  merchant?: MerchantOverrides;
  /** Timing of the simulated card readers (pairing delay, code lifetime, start window). */
  readers?: ReaderOptions;
  webhook?: WebhookOptions;
  /** Access log and webhook attempts; never receives card numbers, CVV or the API key. */
  log?: (line: string) => void;
}

/** How the core is wired into its host (index.ts on Node). */
export interface SandboxHost {
  /** The dashboard's page asks for the key (off loopback) instead of signing in by itself. */
  dashboardAsksForKey?: boolean;
  /** The built dashboard script; without it `GET /` says the dashboard is not built. */
  dashboardScript?: DashboardScript;
  /** The modules of Lit that the dashboard's script imports, from the `lit` dependency. */
  litModules?: LitModules;
  /**
   * The path the app is served under on its origin ('' by default: the root). The host strips
   * it from each request before `handle`; the URLs the sandbox gives out carry it.
   */
  basePath?: string;
  /**
   * Called once the store exists, before anyone else follows it: the data file's journal
   * subscribes here (a change is in the file before anyone else hears of it) and fills the
   * store from the file. The request log is handed over too, for a host that keeps it (the
   * static site's worker). What it returns is closed with the core.
   */
  persist?: (store: Store, requests: RequestLog) => { close(): void } | undefined;
}

export interface SandboxCore {
  readonly ctx: SandboxContext;
  /** The app: a Web `Request` in, the provider's answer out. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** Stops webhooks and timers, ends the live streams, closes what `persist` opened. */
  close(): void;
}

export function resolveConfig(options: SandboxCoreOptions): SandboxConfig {
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

export function createSandboxCore(
  options: SandboxCoreOptions = {},
  host: SandboxHost = {},
): SandboxCore {
  const config = resolveConfig(options);
  const log = options.log ?? (() => {});
  const store = new Store();
  const live = new LiveUpdates();
  const requests = new RequestLog();
  const clock = new Clock(store);
  const webhooks = new Webhooks(options.webhook ?? {}, store, clock, log);
  const persisted = host.persist?.(store, requests);
  live.follow(store, requests);

  const ctx: SandboxContext = {
    config,
    store,
    webhooks,
    clock,
    requests,
    live,
    sessions: new Sessions(!(host.dashboardAsksForKey ?? false)),
    log,
    accessLog: options.log !== undefined,
    basePath: host.basePath ?? '',
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
  const handle = createApp(ctx, [
    dashboardRoutes(
      host.dashboardScript ?? (() => undefined),
      host.litModules ?? (() => undefined),
    ),
  ]);
  return {
    ctx,
    handle,
    close() {
      webhooks.close();
      clock.cancelAll();
      live.close();
      persisted?.close();
    },
  };
}
