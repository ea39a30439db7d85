// The provider's OpenAPI document for conformance.test.ts: $ref resolution and every
// example the document gives for a request or response body (built from property-level
// examples where it gives no whole one).
import { readFileSync } from 'node:fs';

// The provider's public OpenAPI document (Apache-2.0), kept in the repository so the
// test runs from a clean clone.
export const spec = JSON.parse(
  readFileSync(new URL('./fixtures/provider-openapi.json', import.meta.url), 'utf8'),
) as Json;

export type Json = { [key: string]: unknown };

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows `$ref` pointers (`#/components/...`) until a concrete node. */
export function resolve(node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), spec);
  }
  return current;
}

/**
 * Builds a body from the property-level examples of a schema (enums give
 * their first value; a required leaf without one gets a typed stand-in), so
 * bodies that have no whole example are still checked.
 * Responses leave write-only properties out, as the provider would.
 */
function synthesize(node: unknown, direction: 'request' | 'response', depth = 0): unknown {
  const schema = resolve(node);
  if (!isObject(schema) || depth > 12) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => synthesize(part, direction, depth + 1));
    return Object.assign({}, ...parts.filter(isObject));
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return synthesize(options[0], direction, depth + 1);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'array') {
    const item = synthesize(schema.items, direction, depth + 1);
    return item === undefined ? undefined : [item];
  }
  if (schema.type === 'object' || isObject(schema.properties)) {
    const out: Json = {};
    for (const [name, property] of Object.entries(
      isObject(schema.properties) ? schema.properties : {},
    )) {
      const resolved = resolve(property);
      if (direction === 'response' && isObject(resolved) && resolved.writeOnly === true) continue;
      const value =
        synthesize(property, direction, depth + 1) ?? placeholderFor(name, resolved, schema);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  return undefined;
}

/** A typed stand-in for a required leaf the document gives no example for. */
function placeholderFor(name: string, property: unknown, parent: Json): unknown {
  const required = Array.isArray(parent.required) && parent.required.includes(name);
  if (!required || !isObject(property)) return undefined;
  const stand: Record<string, unknown> = { string: 'x', integer: 1, number: 1, boolean: false };
  return typeof property.type === 'string' ? stand[property.type] : undefined;
}

export interface Example {
  name: string;
  value: unknown;
}

/** Every example the document gives for one request or response body. */
export function examplesOf(body: unknown, direction: 'request' | 'response'): Example[] {
  const resolved = resolve(body);
  if (!isObject(resolved) || !isObject(resolved.content)) return [];
  const media = resolved.content['application/json'];
  if (!isObject(media)) return [];
  const found: Example[] = [];
  if (media.example !== undefined) found.push({ name: 'example', value: media.example });
  if (isObject(media.examples)) {
    for (const [name, entry] of Object.entries(media.examples)) {
      const example = resolve(entry);
      if (isObject(example) && 'value' in example) found.push({ name, value: example.value });
    }
  }
  const schema = resolve(media.schema);
  if (isObject(schema)) {
    if (schema.example !== undefined) found.push({ name: 'schema example', value: schema.example });
    const items = resolve(schema.items);
    if (isObject(items) && items.example !== undefined) {
      found.push({ name: 'items schema example', value: [items.example] });
    }
  }
  // Only where the document gives no whole example: a body built from parts
  // says less than one the provider wrote.
  const synthesized = found.length === 0 ? synthesize(media.schema, direction) : undefined;
  if (synthesized !== undefined) found.push({ name: 'from property examples', value: synthesized });
  return found;
}
