// Request validation with the shared schemas: the first issue becomes the provider's
// 400 `{ error_code: MISSING | INVALID, message, param }`, exactly as the companion server does.

import type * as z from 'zod/mini';
import { describeIssue } from '../schemas/index.ts';
import { ApiError } from './errors.ts';

export function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data as z.infer<S>;
  const issue = describeIssue(result.error, input);
  return failWith(issue.code, issue.message, issue.param);
}

function failWith(code: 'MISSING' | 'INVALID', message: string, param: string): never {
  throw new ApiError(400, code, message, param);
}
