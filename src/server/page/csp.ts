// A Content-Security-Policy as data: directives and their sources, merged and written out.
// What widgetTags() needs and what pageSecurityHeaders() sends are both this shape, so one can
// be handed to the other (`extra`).

/** Sources by directive: `{ 'script-src': ["'self'", 'https://cdn.example'] }`. */
export type CspSources = Record<string, readonly string[]>;

/** A directive's name: lower-case letters and dashes (`script-src`, `report-to`). */
const DIRECTIVE = /^[a-z][a-z-]*$/;
/**
 * One source expression, whatever its kind (`'self'`, `https:`, `https://cdn.example`,
 * `'nonce-...'`, a Trusted Types policy name, a reporting group): no space, quote mark out of
 * place, `;` or `,` (which would end the directive or the policy) and nothing outside
 * printable ASCII (no header injection).
 */
const SOURCE = /^(?:'[\w+/=-]+'|[\x21\x23-\x2b\x2d-\x3a\x3c-\x7e]+)$/;

/** A nonce as a CSP takes it: base64 or base64url, at least 16 characters (96 bits). */
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** The nonce, checked: a TypeError naming `field` otherwise. */
export function checkedNonce(field: string, nonce: unknown): string | undefined {
  if (nonce === undefined) return undefined;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
    throw new TypeError(
      `${field} must be base64 of at least 12 random bytes, new for each response (crypto.randomBytes(16).toString('base64')), not ${JSON.stringify(nonce)}`,
    );
  }
  return nonce;
}

/** `extra` checked: each directive and source well formed, else a TypeError naming it. */
export function checkedSources(field: string, sources: unknown): CspSources {
  if (sources === undefined) return {};
  if (typeof sources !== 'object' || sources === null || Array.isArray(sources)) {
    throw new TypeError(
      `${field} must be an object of directives to sources, not ${String(sources)}`,
    );
  }
  for (const [directive, list] of Object.entries(sources)) {
    if (!DIRECTIVE.test(directive)) {
      throw new TypeError(`${field}: "${directive}" is not a directive name`);
    }
    if (
      !Array.isArray(list) ||
      !list.every((source) => typeof source === 'string' && SOURCE.test(source))
    ) {
      throw new TypeError(
        `${field}['${directive}'] must be a list of source expressions ('self', https://cdn.example), not ${JSON.stringify(list)}`,
      );
    }
  }
  return sources as CspSources;
}

/** Every directive of each, its sources in order, each once. */
export function mergeSources(...all: CspSources[]): CspSources {
  const merged: Record<string, string[]> = {};
  for (const sources of all) {
    for (const [directive, list] of Object.entries(sources)) {
      const into = merged[directive] ?? [];
      for (const source of list) if (!into.includes(source)) into.push(source);
      merged[directive] = into;
    }
  }
  return merged;
}

/** The policy as a header value: `default-src 'self'; script-src ...`. */
export function cspHeader(sources: CspSources): string {
  return Object.entries(sources)
    .map(([directive, list]) => [directive, ...list].join(' '))
    .join('; ');
}
