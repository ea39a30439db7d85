// Path patterns such as `/v0.1/checkouts/:id` or `/v0.1/*/checkouts`, matched segment by
// segment. The app routes with Hono; fault injection matches its own patterns here, apart
// from the route types, so faults.ts depends on nothing else in the sandbox.

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** The `:param` values when `pattern` (with `:param` or `*` segments) matches `path`, else null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = split(pattern);
  const have = split(path);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const p = want[i]!;
    const s = have[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(s);
      } catch {
        return null; // a malformed %-escape cannot name any resource
      }
    } else if (p !== '*' && p !== s) {
      return null;
    }
  }
  return params;
}
