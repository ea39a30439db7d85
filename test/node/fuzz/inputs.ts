// Generators of hostile input for the fuzz suites: strings and values that break naive code
// (huge, unusual unicode, lone surrogates, NUL, prototype keys), request bodies that are
// broken as text (malformed JSON, invalid UTF-8, deep nesting) or as data (one field of a
// valid body deleted or replaced), and wrong methods and content types.
import fc from 'fast-check';

/** Short strings a parser, a regex or a log line might trip over. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  '\uD800', // lone high surrogate: not encodable as UTF-8
  '\uDFFF',
  '\u202E', // right-to-left override
  '\u200B\u200D\uFEFF', // zero-width characters and a BOM
  'e\u0301', // combining accent
  '👩‍👩‍👧‍👦',
  '𝕏𝔂𝔃',
  'ﷺ',
  '٣٤٥٦', // Arabic-Indic digits: \d in some engines, not in ours
  '４２００', // full-width digits
  '\r\nX-Injected: 1',
  '%00',
  '%zz',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the attack
  '${jndi:ldap://x}',
  'NaN',
  '-0',
  '1e999',
  'null',
  'true',
  '[]',
  '{}',
];

/** One character repeated thousands of times: the body caps and the regexes meet these. */
const hugeString = fc
  .tuple(
    fc.constantFrom('a', '9', 'é', '🙂', '\u0000', '\u202E', '𝕏', ' '),
    fc.nat({ max: 40_000 }),
  )
  .map(([char, n]) => char.repeat(1_000 + n));

export const weirdString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 3 },
  // Any code point, lone surrogates included (fast-check's 'binary' unit builds a table of
  // every code point on first use, which costs seconds).
  {
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 20 })
      .map((codes) => String.fromCodePoint(...codes)),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), weight: 2 },
  { arbitrary: hugeString, weight: 1 },
);

/** Any JSON value, mostly of a type a field does not expect. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: weirdString, weight: 4 },
  {
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 53 + 1,
      1e308,
      -1e308,
      5e-324,
      [],
      {},
      [null],
      { '': '' },
    ),
    weight: 3,
  },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

/** Every path (dotted) to a value in a plain JSON object, inner objects included. */
export function fieldPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [path, ...fieldPaths(inner, path)];
  });
}

function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Deletes (`replacement` absent) or replaces the value at a dotted path; creates nothing. */
export function mutateAt(body: unknown, path: string, replacement?: { value: unknown }): unknown {
  const copy = cloneJson(body);
  const keys = path.split('.');
  let parent = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement.value;
  return copy;
}

export interface BodyCase {
  /** What is sent as the body (a string, or raw bytes for invalid UTF-8). */
  text: string | Uint8Array<ArrayBuffer>;
  /** The dotted field this body broke on purpose, when it broke exactly one. */
  mutated?: string;
  /** The value put there (undefined when the field was deleted). */
  put?: unknown;
  /** Short description for a failure message. */
  label: string;
}

/** Bodies built from a valid `template`: intact, one field broken, or broken as text. */
export function bodyCases(template: unknown): fc.Arbitrary<BodyCase> {
  const valid = JSON.stringify(template);
  const paths = fieldPaths(template);
  const oneField =
    paths.length === 0
      ? fc.constant<BodyCase>({ text: valid, label: 'valid' })
      : fc
          .tuple(fc.constantFrom(...paths), fc.option(weirdValue, { freq: 4, nil: undefined }))
          .map(([path, value]): BodyCase => {
            const deleted = value === undefined;
            const body = mutateAt(template, path, deleted ? undefined : { value });
            return {
              text: JSON.stringify(body),
              mutated: path,
              put: value,
              label: deleted ? `without ${path}` : `${path} = ${preview(value)}`,
            };
          });
  const extraKey = fc.tuple(weirdString, weirdValue).map(([key, value]): BodyCase => {
    // Written as text so that a `__proto__` key reaches JSON.parse as an own property.
    const text = `${valid.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`;
    return { text, label: `extra key ${preview(key)}` };
  });
  const brokenText = fc.oneof(
    fc.nat({ max: Math.max(0, valid.length - 1) }).map((cut) => ({
      text: valid.slice(0, cut),
      label: `truncated at ${cut}`,
    })),
    fc
      .tuple(
        fc.nat({ max: valid.length }),
        fc.constantFrom(',', '}', '"', '\\', ':', 'x', '\u0000'),
      )
      .map(([at, char]) => ({
        text: valid.slice(0, at) + char + valid.slice(at),
        label: `${JSON.stringify(char)} inserted at ${at}`,
      })),
    fc
      .constantFrom(
        '',
        '   ',
        'null',
        '[]',
        '"order"',
        '0',
        '1e999999',
        '{"a":1,}',
        "{'a':1}",
        '{"a":1}{"b":2}',
        '\uFEFF{}',
        'undefined',
        'NaN',
        `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
        `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
      )
      .map((text) => ({ text, label: `text ${preview(text)}` })),
    fc
      .constantFrom(
        [0xff, 0xfe],
        [0xc3, 0x28],
        [0xed, 0xa0, 0x80], // an encoded surrogate: invalid UTF-8
        [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d], // {"a":"<cut>"}
      )
      .map((bytes) => ({ text: new Uint8Array(bytes), label: 'invalid UTF-8' })),
  );
  return fc
    .oneof(
      { arbitrary: fc.constant<BodyCase>({ text: valid, label: 'valid' }), weight: 1 },
      { arbitrary: oneField, weight: 6 },
      { arbitrary: extraKey, weight: 1 },
      { arbitrary: brokenText, weight: 3 },
    )
    .map(printable);
}

/** fast-check prints a counterexample through this: the label, not 40 KB of body. */
export function printable<T extends { label: string }>(value: T): T {
  const copy = { ...value };
  Object.defineProperty(copy, fc.toStringMethod, { value: () => `<body ${value.label}>` });
  return copy;
}

/** Mostly JSON; sometimes what a form, a confused client or an attacker sends. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/problem+json',
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
      'application',
      ';;;',
      'application/json; charset=latin1',
    ),
    weight: 3,
  },
);

export const anyMethod = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'PROPFIND',
);

/** encodeURIComponent, with lone surrogates (which no URL can carry) made U+FFFD first. */
export function encode(text: string): string {
  return encodeURIComponent(
    text.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    ),
  );
}

/** A path segment: valid-looking, garbage, or a traversal attempt, percent-encoded or raw. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  weirdString.map((s) => encode(s.slice(0, 300)).slice(0, 900) || '%20'),
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%', '%zz', '%00', '%C0%AF', 'a%2Fb', '%F0%9F'),
);

/** A query string of random keys and values (URL-encoded; a few left raw). */
export const queryString: fc.Arbitrary<string> = fc
  .array(fc.tuple(weirdString, weirdString), { maxLength: 4 })
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs
          .map(([k, v]) => `${encode(k.slice(0, 50))}=${encode(v.slice(0, 200))}`)
          .join('&')}`,
  );

export function preview(value: unknown): string {
  // Labels are built for every request: cut before stringifying, never after.
  if (typeof value === 'string') {
    const head = JSON.stringify(value.slice(0, 50));
    return value.length > 50 ? `${head}... (${value.length} chars)` : head;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}... (${text.length} chars)` : text;
}
