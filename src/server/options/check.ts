/**
 * The checks every option group's resolver is made of. Each names the option it refuses by
 * its full path (`provider.timeoutMs`, `rateLimit.checkoutsPerClient.limit`) and says what
 * it got, so a merchant's mistake is found at start, where it was made, and never turns
 * into a setting silently ignored or a failure at the first payment.
 */

/** A value as a refusal quotes it: short, and never a function's source. */
export function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

/** Refuses an option by its path, with the message the merchant's developer reads first. */
export function refuse(path: string, wants: string, got: unknown): never {
  throw new TypeError(`createPaymentHandler: ${path} must be ${wants}, got ${shown(got)}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The group at `path` as an object whose every key is one of `known`: a key it does not know
 * (a typo, a misplaced option) is refused with the names it takes. `undefined` stays so.
 */
export function group<T extends object>(
  path: string,
  value: T | undefined,
  known: readonly (keyof T & string)[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) refuse(path, `{ ${known.join(', ')} }`, value);
  for (const name of Object.keys(value)) {
    if (!(known as readonly string[]).includes(name)) {
      throw new TypeError(
        `createPaymentHandler: unknown option ${path}.${name}; ${path} takes ${known.join(', ')}`,
      );
    }
  }
  return value;
}

/** A whole number of milliseconds from `min` up (a fraction is rounded up). */
export function milliseconds(path: string, value: unknown, fallback: number, min: 0 | 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    refuse(
      path,
      `${min === 0 ? 'zero or a positive' : 'a positive'} number of milliseconds`,
      value,
    );
  }
  return Math.ceil(value);
}

/** A whole number from `min` to `max`. */
export function wholeNumber(
  path: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(path, `a whole number from ${min} to ${max}`, value);
  }
  return value;
}

/** A function, or undefined when the option is optional and left out. */
export function optionalFunction<F>(path: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== 'function') refuse(path, 'a function', value);
  return value;
}

/** A non-empty string. */
export function text(path: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') refuse(path, 'a non-empty string', value);
  return value;
}

/** An absolute http(s) URL, parsed. */
export function httpUrl(path: string, value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    refuse(path, 'an absolute http(s) URL', value);
  }
  return url;
}

/**
 * Whether `value` is a site-relative path: one leading `/`, never `//` or `/\` (which a
 * browser reads as another host: the shape of an open redirect).
 */
export function isSitePath(value: string): boolean {
  if (!/^\/(?![/\\])/.test(value) || value.includes('\\')) return false;
  // No space or control character: browsers strip some of them, which can turn `/\t/x` into `//x`.
  return [...value].every((ch) => ch.charCodeAt(0) > 0x20 && ch.charCodeAt(0) !== 0x7f);
}
