// `payment-widget/sandbox`: a local, stateful simulator of the provider's payments API.
// `createSandbox()` resolves once it listens on 127.0.0.1; `handle()` is the same app
// without a socket.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerErrorBody } from '../http/errors.ts';
import { toNodeListener } from '../http/node.ts';
import { createApp } from './app.ts';
import { ALL_SCOPES, type SandboxConfig, type SandboxContext } from './context.ts';
import { FaultStore } from './faults.ts';
import { Persistence } from './persist.ts';
import { buildMerchant, type MerchantOverrides } from './seed/merchant.ts';
import { type ReaderOptions, resolveReaderTiming } from './seed/readers.ts';
import { Store } from './state.ts';
import { type WebhookOptions, Webhooks } from './webhooks.ts';

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
  /** Forget every checkout, customer and transaction; drop faults and queued webhooks. */
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
  const store = new Store();
  const faults = new FaultStore();
  const webhooks = new Webhooks(options.webhook ?? {}, log);
  const persistence = options.dataFile
    ? new Persistence(options.dataFile, () => store.snapshot())
    : undefined;
  const loaded = persistence?.load();
  if (loaded) store.restore(loaded);

  const ctx: SandboxContext = {
    config,
    store,
    faults,
    webhooks,
    log,
    changed: () => persistence?.schedule(),
    reset: () => {
      store.clear();
      faults.clear();
      webhooks.clear();
      persistence?.schedule();
    },
  };
  const handle = createApp(ctx);

  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = formatUrl(server.address() as AddressInfo);
  server.on(
    'request',
    toNodeListener(handle, { errorBody: providerErrorBody, hostname: new URL(url).host }),
  );

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
        persistence?.flushPending();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
