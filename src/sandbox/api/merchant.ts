// Merchant: the account (`/v0.1/me` with `include[]`), personal profile, merchant profile,
// settings, doing-business-as, and bank accounts (v1.1 by merchant code, the deprecated v0.1
// alias). Everything is read from the default merchant (`SandboxOptions.merchant`).
//
// `include[]` takes the values the provider's OpenAPI lists: settings, doing_business_as and
// bank_accounts (inside merchant_profile), app_settings (top level) and country_details (in
// the addresses). Without it `/v0.1/me` returns the account, both profiles and permissions,
// and the addresses carry no country_details. Any other value is a 400 naming `include[]`.

import { Hono } from 'hono';
import { json } from '../../http/json.ts';
import { isRecord } from '../../shared/record.ts';
import type { RouteContext, Routes, SandboxConfig, SandboxEnv } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { type Access, allow, PROFILE_READ } from '../middleware/access.ts';
import { deprecated } from '../middleware/deprecation.ts';

const PAYOUT_SETTINGS: Access = { scopes: ['user.payout-settings'] };
const BANK_ACCOUNTS: Access = {
  scopes: ['user.payout-settings', 'user.profile', 'user.profile_readonly'],
};

const INCLUDES = [
  'settings',
  'doing_business_as',
  'bank_accounts',
  'app_settings',
  'country_details',
] as const;
type Include = (typeof INCLUDES)[number];

function parseIncludes(url: URL): Set<Include> {
  // Clients send `include[]=a&include[]=b`; some send `include=a,b`. Both are read.
  const raw = [...url.searchParams.getAll('include[]'), ...url.searchParams.getAll('include')]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const out = new Set<Include>();
  for (const value of raw) {
    if (!(INCLUDES as readonly string[]).includes(value)) {
      throw invalid('include[]', `include[] values must be among ${INCLUDES.join(', ')}`);
    }
    out.add(value as Include);
  }
  return out;
}

type Json = Record<string, unknown>;

/** Drops `country_details` from an address unless asked for. */
function address(value: unknown, withDetails: boolean): unknown {
  if (withDetails || !isRecord(value)) return value;
  const { country_details: _omit, ...rest } = value;
  return rest;
}

function personalProfile(config: SandboxConfig, withDetails = true): Json {
  const p = config.merchant.personal_profile;
  return { ...p, address: address(p.address, withDetails) };
}

function merchantProfile(config: SandboxConfig, includes: ReadonlySet<Include> | 'all'): Json {
  const m = config.merchant;
  const has = (i: Include) => includes === 'all' || includes.has(i);
  const out: Json = {
    ...m.merchant_profile,
    address: address(m.merchant_profile.address, has('country_details')),
  };
  if (has('doing_business_as')) out.doing_business_as = m.doing_business_as;
  if (has('settings')) out.settings = m.settings;
  if (has('bank_accounts')) out.bank_accounts = m.bank_accounts;
  return out;
}

function me(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const includes = parseIncludes(new URL(c.req.url));
  const m = ctx.config.merchant;
  const body: Json = {
    account: { username: m.username, type: 'normal' },
    personal_profile: personalProfile(ctx.config, includes.has('country_details')),
    merchant_profile: merchantProfile(ctx.config, includes),
    permissions: m.permissions,
  };
  if (includes.has('app_settings')) body.app_settings = m.app_settings;
  return json(body);
}

const getPersonalProfile = (c: RouteContext) => json(personalProfile(c.env.sandbox.config));
const getMerchantProfile = (c: RouteContext) => json(merchantProfile(c.env.sandbox.config, 'all'));
const getSettings = (c: RouteContext) => json(c.env.sandbox.config.merchant.settings);
const getDoingBusinessAs = (c: RouteContext) =>
  json(c.env.sandbox.config.merchant.doing_business_as);

/** `primary=true` keeps only the payout account; `false` (or absent) lists them all. */
function bankAccounts(c: RouteContext): Response {
  const { config } = c.env.sandbox;
  const primary = new URL(c.req.url).searchParams.get('primary');
  if (primary !== null && primary !== 'true' && primary !== 'false') {
    throw invalid('primary', 'primary must be true or false');
  }
  const accounts = config.merchant.bank_accounts;
  return json(primary === 'true' ? accounts.filter((a) => a.primary === true) : accounts);
}

/** Routes with a merchant code in the path answer 404 for any other merchant. */
export function requireMerchant(c: RouteContext): void {
  if (c.req.param('merchant_code') !== c.env.sandbox.config.merchantCode) {
    throw notFound('Merchant not found');
  }
}

function listBankAccounts(c: RouteContext): Response {
  requireMerchant(c);
  return bankAccounts(c);
}

export const merchantRoutes: Routes = new Hono<SandboxEnv>()
  .get('/v0.1/me', allow(PROFILE_READ), me)
  .get('/v0.1/me/personal-profile', allow(PROFILE_READ), getPersonalProfile)
  .get('/v0.1/me/merchant-profile', allow(PROFILE_READ), getMerchantProfile)
  .get('/v0.1/me/merchant-profile/settings', allow(PAYOUT_SETTINGS), getSettings)
  .get('/v0.1/me/merchant-profile/doing-business-as', allow(PROFILE_READ), getDoingBusinessAs)
  .get('/v1.1/merchants/:merchant_code/bank-accounts', allow(BANK_ACCOUNTS), listBankAccounts)
  // Deprecated: the same answer, with the Deprecation and successor Link headers.
  .get(
    '/v0.1/me/merchant-profile/bank-accounts',
    deprecated('/v1.1/merchants/:merchant_code/bank-accounts'),
    allow(BANK_ACCOUNTS),
    bankAccounts,
  );
