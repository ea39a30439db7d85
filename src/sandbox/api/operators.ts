// Operators (sub-accounts; every endpoint deprecated, see middleware/deprecation.ts): list with `query`
// and `include_primary`, create, get, update (PUT, as the provider's OpenAPI shows) and
// deactivate (DELETE; in the OpenAPI though not in the seed).
//
// Rules:
//   - A new password given to a disabled operator unblocks it (the seed's one transition),
//     unless the same update sets `disabled: true` explicitly: the explicit field wins.
//   - Passwords are never kept or echoed, only the time they were last set.
//   - Usernames are unique (case-insensitive), the primary account's included: 409 CONFLICT.
//   - The primary account (account_type normal) is listed with include_primary=true and can be
//     read by id, but not changed here: 403.
// Choices where the seed says "not shown":
//   - Scopes: reads need user.profile or user.profile_readonly, changes need user.profile —
//     operators are part of the merchant's account profile.
//   - Status codes: create answers 200 (the seed's and OpenAPI's); an unknown id answers 404
//     on GET and DELETE, and 400 NOT_FOUND on PUT, the status the OpenAPI gives for update.

import { Hono } from 'hono';
import { json } from '../../http/json.ts';
import {
  type OperatorCreateBody,
  OperatorCreateBodySchema,
  OperatorUpdateBodySchema,
  type Permissions,
} from '../../schemas/index.ts';
import type { RouteContext, Routes, SandboxContext, SandboxEnv } from '../context.ts';
import { ApiError, invalid, notFound, readApiJson } from '../errors.ts';
import { type Access, allow, PROFILE_READ } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { deprecated } from '../middleware/deprecation.ts';
import type { Frozen, OperatorRecord } from '../state/records.ts';
import { parse } from '../validate.ts';

const PROFILE_WRITE: Access = { scopes: ['user.profile'] };

/** The primary account's id: below every operator id (the store allocates those). */
const PRIMARY_ID = 1;

type OperatorPermissions = OperatorRecord['permissions'];

function permissions(base: Frozen<OperatorPermissions>, change: Permissions | undefined) {
  const out = { ...base };
  for (const key of Object.keys(out) as (keyof OperatorPermissions)[]) {
    const value = change?.[key];
    if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}

const NO_PERMISSIONS: OperatorPermissions = {
  create_moto_payments: false,
  full_transaction_history_view: false,
  refund_transactions: false,
  create_referral: false,
};

function operatorJson(o: Frozen<OperatorRecord>): Record<string, unknown> {
  return {
    id: o.id,
    username: o.username,
    nickname: o.nickname ?? null,
    disabled: o.disabled,
    created_at: o.created_at,
    updated_at: o.updated_at,
    permissions: o.permissions,
    account_type: 'operator',
  };
}

function primaryJson(ctx: SandboxContext): Record<string, unknown> {
  const m = ctx.config.merchant;
  const created = m.bank_accounts[0]?.created_at ?? '2023-03-01T09:00:00.000Z';
  const p = m.personal_profile;
  return {
    id: PRIMARY_ID,
    username: m.username,
    nickname: [p.first_name, p.last_name].filter(Boolean).join(' ') || null,
    disabled: false,
    created_at: created,
    updated_at: created,
    permissions: permissions(NO_PERMISSIONS, m.permissions),
    account_type: 'normal',
  };
}

function operatorId(c: RouteContext): number {
  const text = c.req.param('operator_id')!;
  if (!/^\d{1,9}$/.test(text)) throw invalid('operator_id', 'operator_id must be an integer');
  return Number(text);
}

function refuseTakenUsername(ctx: SandboxContext, username: string, self?: number): void {
  const wanted = username.toLowerCase();
  const taken =
    ctx.config.merchant.username.toLowerCase() === wanted ||
    ctx.store.list('operators').some((o) => o.id !== self && o.username.toLowerCase() === wanted);
  if (taken) {
    throw new ApiError(409, 'CONFLICT', 'An account with this username exists', 'username');
  }
}

function parseBoolean(url: URL, name: string): boolean | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(name, `${name} must be true or false`);
  return value === 'true';
}

function list(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const url = new URL(c.req.url);
  const query = url.searchParams.get('query')?.trim().toLowerCase() ?? '';
  const includePrimary = parseBoolean(url, 'include_primary') ?? false;
  const matches = (username: unknown, nickname: unknown) =>
    query === '' ||
    String(username).toLowerCase().includes(query) ||
    (typeof nickname === 'string' && nickname.toLowerCase().includes(query));
  const items: Record<string, unknown>[] = [];
  if (includePrimary) {
    const primary = primaryJson(ctx);
    if (matches(primary.username, primary.nickname)) items.push(primary);
  }
  for (const o of ctx.store.list('operators').sort((a, b) => a.id - b.id)) {
    if (matches(o.username, o.nickname)) items.push(operatorJson(o));
  }
  return json(items);
}

async function create(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body: OperatorCreateBody = parse(OperatorCreateBodySchema, await readApiJson(c.req.raw));
  refuseTakenUsername(ctx, body.username);
  const now = ctx.clock.iso();
  const operator = ctx.store.insert('operators', {
    username: body.username,
    disabled: false,
    permissions: permissions(NO_PERMISSIONS, body.permissions),
    created_at: now,
    updated_at: now,
    password_set_at: now,
    ...(body.nickname !== undefined && { nickname: body.nickname }),
  });
  return json(operatorJson(operator));
}

function retrieve(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const id = operatorId(c);
  if (id === PRIMARY_ID) return json(primaryJson(ctx));
  const operator = ctx.store.get('operators', id);
  if (!operator) throw notFound('Operator not found');
  return json(operatorJson(operator));
}

function refusePrimary(id: number): void {
  if (id === PRIMARY_ID) {
    throw new ApiError(403, 'FORBIDDEN', 'The primary account cannot be changed here');
  }
}

async function update(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const id = operatorId(c);
  refusePrimary(id);
  const body = parse(OperatorUpdateBodySchema, await readApiJson(c.req.raw));
  if (!ctx.store.has('operators', id)) throw new ApiError(400, 'NOT_FOUND', 'Operator not found');
  if (body.username !== undefined) refuseTakenUsername(ctx, body.username, id);
  const now = ctx.clock.iso();
  const operator = ctx.store.update('operators', id, (o) => {
    if (body.username !== undefined) o.username = body.username;
    if (body.nickname !== undefined) o.nickname = body.nickname;
    if (body.password !== undefined) {
      o.password_set_at = now;
      o.disabled = false; // a new password unblocks
    }
    if (body.disabled !== undefined) o.disabled = body.disabled;
    o.permissions = permissions(o.permissions, body.permissions);
    o.updated_at = now;
  });
  return json(operatorJson(operator));
}

function deactivate(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const id = operatorId(c);
  refusePrimary(id);
  if (!ctx.store.has('operators', id)) throw notFound('Operator not found');
  const operator = ctx.store.update('operators', id, (o) => {
    o.disabled = true;
    o.updated_at = ctx.clock.iso();
  });
  return json(operatorJson(operator));
}

const accounts = '/v0.1/me/accounts';
// Every operator endpoint is deprecated, with no successor inside the seed.
const deprecation = deprecated();

export const operatorRoutes: Routes = new Hono<SandboxEnv>()
  .get(accounts, deprecation, allow(PROFILE_READ), list)
  .post(accounts, deprecation, allow(PROFILE_WRITE), capBody, create)
  .get(`${accounts}/:operator_id`, deprecation, allow(PROFILE_READ), retrieve)
  .put(`${accounts}/:operator_id`, deprecation, allow(PROFILE_WRITE), capBody, update)
  .delete(`${accounts}/:operator_id`, deprecation, allow(PROFILE_WRITE), capBody, deactivate);
