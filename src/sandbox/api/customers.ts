// Customers and their saved cards (payment instruments). Cards are saved by processing a
// checkout with a `mandate` (see payments.ts); here they are listed and deactivated.

import { Hono } from 'hono';
import { empty, json } from '../../http/json.ts';
import {
  CustomerCreateBodySchema,
  CustomerUpdateBodySchema,
  type PersonalDetails,
} from '../../schemas/index.ts';
import { isRecord } from '../../shared/record.ts';
import type { RouteContext, Routes, SandboxContext, SandboxEnv } from '../context.ts';
import { ApiError, notFound, readApiJson } from '../errors.ts';
import { allow, PAYMENT_INSTRUMENTS } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import type { CustomerRecord, Frozen } from '../state/records.ts';
import { parse } from '../validate.ts';
import { customerJson, instrumentJson } from './serialize.ts';

function findCustomer(ctx: SandboxContext, id: string): Frozen<CustomerRecord> {
  const customer = ctx.store.get('customers', id);
  if (!customer) throw notFound('Customer not found');
  return customer;
}

/**
 * "Only the parameters included overwrite stored values": a field sent replaces the stored
 * one, a field sent as null clears it, a field left out keeps its value (also inside address).
 */
function merge<T extends object>(stored: T | undefined, sent: object): T {
  const out: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isRecord(value)) {
      out[key] = merge(out[key] as object | undefined, value as object);
    } else out[key] = value;
  }
  return out as T;
}

/** What is kept of sent details: the provider's shape with every null left out. */
function clean(details: PersonalDetails | null | undefined): PersonalDetails | undefined {
  return details == null ? undefined : merge<PersonalDetails>(undefined, details);
}

async function create(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(CustomerCreateBodySchema, await readApiJson(c.req.raw));
  if (ctx.store.has('customers', body.customer_id)) {
    throw new ApiError(409, 'CUSTOMER_ALREADY_EXISTS', 'Customer already exists');
  }
  const details = clean(body.personal_details);
  const customer = ctx.store.insert('customers', {
    customer_id: body.customer_id,
    ...(details && { personal_details: details }),
  });
  return json(customerJson(customer), 201);
}

function retrieve(c: RouteContext): Response {
  return json(customerJson(findCustomer(c.env.sandbox, c.req.param('customer_id')!)));
}

async function update(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(CustomerUpdateBodySchema, await readApiJson(c.req.raw));
  const customer = findCustomer(ctx, c.req.param('customer_id')!);
  const sent = body.personal_details;
  const updated = ctx.store.update('customers', customer.customer_id, (record) => {
    if (sent === null) delete record.personal_details;
    else if (sent !== undefined) record.personal_details = merge(record.personal_details, sent);
  });
  return json(customerJson(updated));
}

function listInstruments(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const customer = findCustomer(ctx, c.req.param('customer_id')!);
  const items = ctx.store
    .list('instruments')
    .filter((i) => i.customer_id === customer.customer_id && i.active)
    .map(instrumentJson);
  return json(items);
}

function deactivateInstrument(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const customer = findCustomer(ctx, c.req.param('customer_id')!);
  const instrument = ctx.store.get('instruments', c.req.param('token')!);
  if (!instrument || instrument.customer_id !== customer.customer_id) {
    throw notFound('Payment instrument not found');
  }
  ctx.store.update('instruments', instrument.token, (i) => {
    i.active = false;
  });
  return empty(204);
}

const customer = '/v0.1/customers/:customer_id';

export const customerRoutes: Routes = new Hono<SandboxEnv>()
  .post('/v0.1/customers', allow(PAYMENT_INSTRUMENTS), capBody, create)
  .get(customer, allow(PAYMENT_INSTRUMENTS), retrieve)
  .put(customer, allow(PAYMENT_INSTRUMENTS), capBody, update)
  .get(`${customer}/payment-instruments`, allow(PAYMENT_INSTRUMENTS), listInstruments)
  .delete(
    `${customer}/payment-instruments/:token`,
    allow(PAYMENT_INSTRUMENTS),
    capBody,
    deactivateInstrument,
  );
