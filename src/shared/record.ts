// What every reader of untrusted JSON asks first: does it parse, and is this value an object
// with keys (not an array, not null)? One definition for the widget, the handler and the
// sandbox. No imports.

/** Whether `value` is a plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` parsed as JSON, or undefined when there is no text or it does not parse. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether two plain-data values differ, compared as their JSON. */
export function differs(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) !== JSON.stringify(b);
}
