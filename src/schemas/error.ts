// The error bodies the provider answers with. Most endpoints use the flat
// `{ error_code, message, param? }`; the reference spec also shows an
// authentication form with `error_message`, a list of flat errors for several
// invalid fields, a problem-style body with `failed_constraints` (payment
// methods) and the readers' `{ errors: { detail, type } }`.
import * as z from 'zod/mini';
import type { Named } from './common.ts';

/**
 * Every `error_code` of the provider's flat errors that the sandbox answers with: the provider's
 * vocabulary, so it lives with the provider's shapes. The sandbox adds none of its own.
 */
export type ProviderErrorCode =
  | 'MISSING'
  | 'INVALID'
  | 'NOT_AUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'DUPLICATED_CHECKOUT'
  | 'CHECKOUT_PROCESSED'
  | 'CUSTOMER_ALREADY_EXISTS'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL_ERROR';

const flatErrorObject = z.object({
  error_code: z.string(),
  message: z.string(),
  param: z.optional(z.string()),
});
/** The provider's flat error, the shape the sandbox answers with. */
export interface FlatErrorSchema extends Named<typeof flatErrorObject> {}
export const FlatErrorSchema: FlatErrorSchema = flatErrorObject;
export type FlatError = z.infer<typeof FlatErrorSchema>;

/** Several invalid fields at once (process checkout 400). */
export const FlatErrorListSchema = z.array(FlatErrorSchema);
export type FlatErrorList = z.infer<typeof FlatErrorListSchema>;

/** 401 and 403 bodies name the text `error_message`, and 403 adds a string `status_code`. */
export const AuthErrorSchema = z.object({
  error_code: z.string(),
  error_message: z.string(),
  status_code: z.optional(z.string()),
});
export type AuthError = z.infer<typeof AuthErrorSchema>;

/** Problem-style validation error (payment methods 400). */
export const DetailsErrorSchema = z.object({
  title: z.optional(z.string()),
  details: z.optional(z.string()),
  status: z.optional(z.number()),
  failed_constraints: z.optional(
    z.array(z.object({ message: z.optional(z.string()), reference: z.optional(z.string()) })),
  ),
});
export type DetailsError = z.infer<typeof DetailsErrorSchema>;

/**
 * Reader endpoints: `errors` holds either `{ detail, type? }` or, for a
 * validation failure, field names mapped to lists of messages.
 */
export const ReaderErrorSchema = z.object({
  errors: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});
export type ReaderError = z.infer<typeof ReaderErrorSchema>;

/**
 * Any error body the provider may send. DetailsError has only optional keys,
 * so it goes last: it would otherwise match every object.
 */
export const ErrorBodySchema = z.union([
  FlatErrorSchema,
  AuthErrorSchema,
  FlatErrorListSchema,
  ReaderErrorSchema,
  DetailsErrorSchema,
]);
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
