// Everything a route may touch, in one object each request carries as Hono's `c.env.sandbox`
// (`app.ts` passes it to `app.fetch`). Route modules depend on this interface, not on
// createSandbox, so they stay testable in isolation.

import type { Context, Hono } from 'hono';
import type { LiveUpdates } from './control/live.ts';
import type { MerchantSeed } from './defaults/merchant.ts';
import type { ReaderTiming } from './defaults/readers.ts';
import type { Clock } from './simulation/clock.ts';
import type { Webhooks } from './simulation/webhooks.ts';
import type { RequestLog } from './state/request-log.ts';
import type { Sessions } from './state/sessions.ts';
import type { Store } from './state/store.ts';

export interface SandboxConfig {
  apiKey: string;
  /** Every accepted key -> its scopes (`apiKey` holds them all). */
  keys: ReadonlyMap<string, ReadonlySet<string>>;
  merchantCode: string;
  merchantName: string;
  payToEmail: string;
  country: string;
  /** The merchant's profile, settings and bank accounts (`/v0.1/me` and its parts). */
  merchant: MerchantSeed;
  /** Simulated card readers: pairing delay, code lifetime, start window. */
  readers: ReaderTiming;
}

export interface SandboxContext {
  readonly config: SandboxConfig;
  /** Every record, changed only through its methods; each change is told to its subscribers. */
  readonly store: Store;
  readonly webhooks: Webhooks;
  /** The one time source: read `clock.now()`, never `Date.now()`. */
  readonly clock: Clock;
  /** The last requests, for `GET /sandbox/requests`. */
  readonly requests: RequestLog;
  /** The dashboard's live updates. */
  readonly live: LiveUpdates;
  /** The dashboard's sign-ins (a cookie standing for the sandbox's own key). */
  readonly sessions: Sessions;
  readonly log: (line: string) => void;
  /** False when nobody reads the log (no `log` option): access lines are not even built. */
  readonly accessLog: boolean;
  /**
   * The path the sandbox is served under on its origin, '' at the root (the CLI). A host that
   * mounts it deeper (a Service Worker under a site's sub-path) strips it from each request
   * before the app sees it; the URLs the sandbox gives out put it back (`baseUrl`).
   */
  readonly basePath: string;
  /** Clears every record (faults too), webhooks in flight and the request log; puts the clock back. */
  reset(): void;
}

/** What every request of the app carries in `c.env`. */
export interface SandboxBindings {
  readonly sandbox: SandboxContext;
  /** Served from a socket that set `X-Request-Id` on Node's response already (`index.ts`). */
  readonly requestIdOnSocket: boolean;
}

export interface SandboxEnv {
  Bindings: SandboxBindings;
  Variables: {
    /** Set by `unrecorded` (middleware/record-requests.ts): kept out of the request log. */
    unrecorded: true;
  };
}

/** What a route of the sandbox is called with: Hono's context, the sandbox in `c.env`. */
export type RouteContext = Context<SandboxEnv>;

/**
 * The sandbox's base URL as its clients reach it (`{base_url}`): the request's origin and the
 * path it is mounted under. Every URL the sandbox gives out (next steps, TermUrl, links)
 * starts with it.
 */
export function baseUrl(c: Context<SandboxEnv>): string {
  return new URL(c.req.url).origin + c.env.sandbox.basePath;
}

/** A route module: a Hono sub-app of full paths, which `app.ts` mounts at the root. */
export type Routes = Hono<SandboxEnv>;

/** Every scope the seed names; the default key holds all of them. */
export const ALL_SCOPES: readonly string[] = [
  'payments',
  'payment_instruments',
  'transactions.history',
  'user.profile',
  'user.profile_readonly',
  'user.payout-settings',
  'readers.read',
  'readers.write',
];
