// Operators (sub-accounts; deprecated endpoints). Server-side only.
import * as z from 'zod/mini';
import { maybe, must, type Named } from './common.ts';

const permissionsObject = z.object({
  create_moto_payments: maybe(z.boolean({ error: must('must be true or false') })),
  full_transaction_history_view: maybe(z.boolean({ error: must('must be true or false') })),
  refund_transactions: maybe(z.boolean({ error: must('must be true or false') })),
  create_referral: maybe(z.boolean({ error: must('must be true or false') })),
});
export interface PermissionsSchema extends Named<typeof permissionsObject> {}
export const PermissionsSchema: PermissionsSchema = permissionsObject;
export type Permissions = z.infer<typeof PermissionsSchema>;

const operatorObject = z.object({
  id: z.int(),
  username: z.string(),
  nickname: maybe(z.string()),
  disabled: maybe(z.boolean()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
  permissions: maybe(PermissionsSchema),
  account_type: maybe(z.enum(['operator', 'normal'])),
});
export interface OperatorSchema extends Named<typeof operatorObject> {}
export const OperatorSchema: OperatorSchema = operatorObject;
export type Operator = z.infer<typeof OperatorSchema>;

export const OperatorListSchema = z.array(OperatorSchema);

const username = z
  .email({ error: must('must be an email address') })
  .check(z.maxLength(256, { error: 'must be at most 256 characters' }));
const password = z
  .string({ error: must('must be a string') })
  .check(z.minLength(8, { error: 'must be at least 8 characters' }));
const nickname = z.string({ error: must('must be a string') });

export const OperatorCreateBodySchema = z.object({
  username,
  password,
  nickname: z.optional(nickname),
  permissions: z.optional(PermissionsSchema),
});
export type OperatorCreateBody = z.infer<typeof OperatorCreateBodySchema>;

/** A new password also unblocks a disabled operator. */
export const OperatorUpdateBodySchema = z.object({
  username: z.optional(username),
  password: z.optional(password),
  nickname: z.optional(nickname),
  disabled: z.optional(z.boolean({ error: must('must be true or false') })),
  permissions: z.optional(PermissionsSchema),
});
export type OperatorUpdateBody = z.infer<typeof OperatorUpdateBodySchema>;
