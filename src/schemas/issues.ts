// Turns a zod failure into the provider's own error shape, so the sandbox and
// the server answer bad input the same way: 400 `{ error_code, message, param }`.

export interface IssueDescription {
  /** Dotted path of the field, as the provider names it (`card.number`). */
  param: string;
  code: 'MISSING' | 'INVALID';
  /** An English sentence that starts with the field's name. */
  message: string;
}

interface IssueLike {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  input?: unknown;
  params?: Record<string, unknown>;
  expected?: string;
  values?: unknown[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  keys?: string[];
}

function firstIssue(error: unknown): IssueLike | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const issue: unknown = issues[0];
  return typeof issue === 'object' && issue !== null ? (issue as IssueLike) : undefined;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** zod's default texts start with a capital ("Invalid input"); ours start with "must"/"is". */
function ownMessage(issue: IssueLike): string | undefined {
  const message = issue.message;
  return message && /^[a-z]/.test(message) ? message : undefined;
}

function fallbackMessage(issue: IssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${issue.expected === 'object' || issue.expected === 'array' ? 'an' : 'a'} ${issue.expected ?? 'value of the right type'}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).map(String).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return 'has an invalid format';
    case 'unrecognized_keys':
      return `has unknown fields: ${(issue.keys ?? []).join(', ')}`;
    default:
      return 'is invalid';
  }
}

/**
 * Describes the first issue of a zod error (or anything with an `issues`
 * array) as the provider would: `param` is the dotted path, `code` is MISSING
 * when the value was absent and INVALID otherwise, and `message` names the field.
 * Pass the parsed `input` when you have it: it makes MISSING exact for
 * schemas whose messages were not written with `must()`.
 */
export function describeIssue(error: unknown, input?: unknown): IssueDescription {
  const issue = firstIssue(error);
  if (!issue) return { param: 'body', code: 'INVALID', message: 'body is invalid' };
  const path = issue.path ?? [];
  const param = path.length > 0 ? path.map(String).join('.') : 'body';
  const absent =
    issue.params?.missing === true ||
    issue.message === 'is required' ||
    ('input' in issue && issue.input === undefined && issue.code === 'invalid_type') ||
    (input !== undefined && path.length > 0 && valueAt(input, path) === undefined);
  const text = absent ? 'is required' : (ownMessage(issue) ?? fallbackMessage(issue));
  // Our refinement messages already say "is required when ...": keep that detail.
  const message = absent && ownMessage(issue)?.startsWith('is required') ? ownMessage(issue) : text;
  return { param, code: absent ? 'MISSING' : 'INVALID', message: `${param} ${message}` };
}
