// What every reader of untrusted JSON asks first: is this value an object with keys (not an
// array, not null)? One definition for the widget, the handler and the sandbox. No imports.

/** Whether `value` is a plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
