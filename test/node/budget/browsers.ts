// Which browsers we support (package.json `browserslist`) and what MDN's
// browser-compat-data says each of them can run: the data the check over the
// built bundles (browsers.test.ts) reads.
import { readFileSync } from 'node:fs';
import bcd, {
  type CompatStatement,
  type Identifier,
  type SimpleSupportStatement,
} from '@mdn/browser-compat-data/forLegacyNode';

/** browserslist's browser names as MDN's data calls them. */
const BCD_NAMES: Record<string, string> = {
  chrome: 'chrome',
  edge: 'edge',
  samsung: 'samsunginternet_android',
  firefox: 'firefox',
  safari: 'safari',
  ios_saf: 'safari_ios',
};

export const BROWSERSLIST: string[] = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).browserslist;

/** Each supported browser (MDN's name) with its oldest supported version. */
export const OLDEST: Record<string, string> = Object.fromEntries(
  BROWSERSLIST.map((query) => {
    const [, name = '', version = ''] = /^(\w+) >= ([\d.]+)$/.exec(query) ?? [];
    const key = BCD_NAMES[name];
    if (!key) throw new Error(`browserslist entry not understood: ${query}`);
    return [key, version];
  }),
);

function compare(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The version a browser added a feature in (unflagged; with `prefix`, only that
 * prefixed spelling), or undefined. A partial implementation that a full one
 * later replaced counts from its own version: it is what that browser runs.
 */
function addedIn(statement: CompatStatement, browser: string, prefix?: string): string | undefined {
  const raw = statement.support[browser as keyof typeof statement.support];
  const entries = (raw === undefined ? [] : [raw].flat()).filter(
    (e: SimpleSupportStatement) => !e.flags && !e.alternative_name && e.prefix === prefix,
  );
  const current = entries.some((e) => !e.version_removed);
  const versions = entries
    .filter((e) => !e.version_removed || (current && e.partial_implementation))
    .map((e) => e.version_added)
    .filter((v): v is string => typeof v === 'string' && v !== 'preview')
    // "≤15" means "15 at the latest".
    .map((v) => v.replace(/^≤/, ''));
  return versions.sort(compare)[0];
}

export interface Gap {
  /** MDN's feature path, e.g. `api.AbortSignal.throwIfAborted`. */
  feature: string;
  /** Each supported browser that lacks it, with the version that added it. */
  missing: string[];
}

/** Where a feature's support falls short of the supported browsers; undefined when it does not. */
export function gapOf(feature: string, prefix?: string): Gap | undefined {
  let node: Identifier | undefined = bcd as unknown as Identifier;
  for (const key of feature.split('.')) node = node?.[key] as Identifier | undefined;
  const statement = node?.__compat;
  if (!statement) throw new Error(`no compat data for ${feature}`);
  const missing: string[] = [];
  for (const [browser, oldest] of Object.entries(OLDEST)) {
    const added = addedIn(statement, browser, prefix);
    if (added === undefined || compare(added, oldest) > 0) {
      missing.push(`${browser} ${added ?? 'none'}`);
    }
  }
  if (missing.length === 0) return undefined;
  return { feature: prefix === undefined ? feature : `${feature} (${prefix})`, missing };
}

/**
 * Every JavaScript built-in and Web API in MDN's data by the name code spells
 * it: a member (`at`, `throwIfAborted`, `adoptedStyleSheets`; statics too, such
 * as `hasOwn`) or a global (`structuredClone`, `CSSStyleSheet`). One name may
 * stand for several features (`replace` is String's and CSSStyleSheet's).
 */
export function apiIndex(): { members: Map<string, string[]>; globals: Map<string, string[]> } {
  const members = new Map<string, string[]>();
  const globals = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, name: string, feature: string) => {
    if (!/^[A-Za-z$][\w$]*$/.test(name)) return;
    map.set(name, [...(map.get(name) ?? []), feature]);
  };
  /** A constructor's or namespace's members; a namespace's classes in turn (Intl.NumberFormat). */
  const visit = (path: string, node: Identifier): void => {
    for (const [member, child] of Object.entries(node)) {
      if (member === '__compat' || member.endsWith('_event')) continue;
      const feature = `${path}.${member}`;
      add(members, member.replace(/_static$/, ''), feature);
      if (/^[A-Z]/.test(member)) visit(feature, child as Identifier);
    }
  };
  for (const [area, tree] of [
    ['api', bcd.api],
    ['javascript.builtins', bcd.javascript.builtins],
  ] as const) {
    for (const [owner, node] of Object.entries(tree as Record<string, Identifier>)) {
      if (owner === '__compat') continue;
      add(globals, owner, `${area}.${owner}`);
      visit(`${area}.${owner}`, node);
    }
  }
  return { members, globals };
}
