/**
 * What a store was handed in place of a client it takes, for the TypeError that says so
 * ("got undefined", "got a Foo with neither call() nor sendCommand()"): the Redis and the
 * PostgreSQL stores' words. `lacks` names what a client would have.
 */
export function gotInstead(value: unknown, lacks: string): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return `got ${String(value)}`;
  }
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const what =
    typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : 'an object';
  return `got ${what} with ${lacks}`;
}
