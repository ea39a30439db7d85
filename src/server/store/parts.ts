/**
 * The handler's `store` option, taken apart once at start into the four parts its users need
 * (types.ts): the claims, and each optional part that is there. A part is there whole or not at
 * all: a store with `due` but no `watch` is a mistake, refused here by name rather than
 * found at the first reconciliation. The option is one store, or `{ claims, watch?,
 * counters?, records? }` with the parts from different stores.
 */
import type {
  ClaimStore,
  CounterStore,
  PaymentStore,
  RecordStore,
  StoreParts,
  WatchStore,
} from './types.ts';

/** The parts the handler works with; an optional one is undefined when no store keeps it. */
export interface ResolvedStore {
  claims: ClaimStore;
  watch: WatchStore | undefined;
  counters: CounterStore | undefined;
  records: RecordStore | undefined;
}

const FUNCTIONS = {
  claims: ['claim', 'complete', 'release'],
  watch: ['watch', 'due', 'unwatch'],
  counters: ['hit'],
  records: ['read', 'swap', 'write', 'remove'],
} as const;

/** What each part is for, in the messages. */
const PURPOSE = {
  claims: 'the hooks’ claims',
  watch: 'the watched checkouts of reconcile()',
  counters: 'the rate limits’ counters',
  records: 'the baskets’ records and open steps',
} as const;

type PartName = keyof typeof FUNCTIONS;

/** The functions of the earlier names, and their names now. */
const RENAMED: Readonly<Record<string, string>> = { track: 'watch', untrack: 'unwatch' };

const SUPPORTED =
  'a PaymentStore (createMemoryStore(), createRedisStore(client), createPostgresStore(client)) or { claims, watch?, counters?, records? }';

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** `part`'s functions of `source`, bound to it; undefined when it has none of them. */
function take<Part>(
  source: Record<string, unknown>,
  part: PartName,
  where: string,
): Part | undefined {
  const names: readonly string[] = FUNCTIONS[part];
  const present = names.filter((name) => typeof source[name] === 'function');
  for (const [old, now] of Object.entries(RENAMED)) {
    if (names.includes(now) && typeof source[old] === 'function' && !present.includes(now)) {
      throw new TypeError(
        `createPaymentHandler: the ${where}'s ${old}() is now called ${now}(); rename it (${PURPOSE[part]})`,
      );
    }
  }
  if (present.length === 0) return undefined;
  const missing = names.filter((name) => !present.includes(name));
  if (missing.length > 0) {
    throw new TypeError(
      `createPaymentHandler: the ${where} keeps ${PURPOSE[part]} only in part: it has ${present.map((n) => `${n}()`).join(', ')} but no ${missing.map((n) => `${n}()`).join(', ')}; implement ${names.map((n) => `${n}()`).join(', ')} together, or none of them`,
    );
  }
  return Object.fromEntries(
    names.map((name) => [name, (source[name] as (...args: unknown[]) => unknown).bind(source)]),
  ) as Part;
}

/** The claims of `source`, with `completeIn` and `holder` when it has both, and `leaseLeft`. */
function takeClaims(source: Record<string, unknown>, where: string): ClaimStore {
  const claims = take<ClaimStore>(source, 'claims', where);
  if (claims === undefined) {
    throw new TypeError(
      `createPaymentHandler: ${where} must be ${SUPPORTED}; it has no claim(), complete(), release()`,
    );
  }
  const completeIn = source.completeIn;
  const holder = source.holder;
  if ((typeof completeIn === 'function') !== (typeof holder === 'function')) {
    throw new TypeError(
      `createPaymentHandler: the ${where} has ${typeof completeIn === 'function' ? 'completeIn() but no holder()' : 'holder() but no completeIn()'}; a store that marks claims done in the merchant's transaction implements both`,
    );
  }
  if (typeof completeIn === 'function' && typeof holder === 'function') {
    claims.completeIn = completeIn.bind(source);
    claims.holder = holder.bind(source);
  }
  const { leaseLeft } = source;
  if (typeof leaseLeft === 'function') claims.leaseLeft = leaseLeft.bind(source);
  return claims;
}

/** Resolves the `store` option; undefined when none was given (the handler keeps its own). */
export function resolveStore(
  store: PaymentStore | StoreParts | undefined,
): ResolvedStore | undefined {
  if (store === undefined) return undefined;
  if (!isObject(store)) {
    throw new TypeError(`createPaymentHandler: store must be ${SUPPORTED}; got ${String(store)}`);
  }
  if (!('claims' in store)) {
    return {
      claims: takeClaims(store, 'store'),
      watch: take<WatchStore>(store, 'watch', 'store'),
      counters: take<CounterStore>(store, 'counters', 'store'),
      records: take<RecordStore>(store, 'records', 'store'),
    };
  }
  for (const name of Object.keys(store)) {
    if (!(name in FUNCTIONS)) {
      throw new TypeError(
        `createPaymentHandler: unknown store part ${name}; the parts are claims, watch, counters, records`,
      );
    }
  }
  const parts = store as Record<PartName, unknown>;
  const part = <Part>(name: Exclude<PartName, 'claims'>): Part | undefined => {
    const source = parts[name];
    if (source === undefined) return undefined;
    const where = `store.${name}`;
    if (!isObject(source)) {
      throw new TypeError(`createPaymentHandler: ${where} must be a store; got ${String(source)}`);
    }
    const taken = take<Part>(source, name, where);
    if (taken === undefined) {
      throw new TypeError(
        `createPaymentHandler: ${where} keeps none of ${PURPOSE[name]}: it has no ${FUNCTIONS[name].map((n) => `${n}()`).join(', ')}`,
      );
    }
    return taken;
  };
  if (!isObject(parts.claims)) {
    throw new TypeError(
      `createPaymentHandler: store.claims must be a store that keeps claims; got ${String(parts.claims)}`,
    );
  }
  return {
    claims: takeClaims(parts.claims, 'store.claims'),
    watch: part<WatchStore>('watch'),
    counters: part<CounterStore>('counters'),
    records: part<RecordStore>('records'),
  };
}

/** The parts of a store the handler made itself (the memory store): each one it has. */
export function partsOf(store: PaymentStore): ResolvedStore {
  return resolveStore(store) as ResolvedStore;
}
