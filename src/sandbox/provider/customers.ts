// Customers and their saved cards (payment instruments). Cards are saved by processing a
// checkout with a `mandate` (see payments.ts); here they are listed and deactivated.

import { empty, json } from '../../http/json.ts';
import {
  CustomerCreateBodySchema,
  CustomerUpdateBodySchema,
  type PersonalDetails as PersonalDetailsBody,
} from '../../schemas/index.ts';
import type { SandboxContext } from '../context.ts';
import { ApiError, notFound, readJson } from '../http/errors.ts';
import type { Route, RouteRequest } from '../http/route.ts';
import { customerJson, instrumentJson } from './serialize.ts';
import type { CustomerRecord, PersonalDetails } from '../state/records.ts';
import { parse } from '../http/validate.ts';
import { PAYMENT_INSTRUMENTS } from '../http/scopes.ts';

function findCustomer(ctx: SandboxContext, id: string): CustomerRecord {
  const customer = ctx.store.customers.get(id);
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
    else if (typeof value === 'object' && !Array.isArray(value)) {
      out[key] = merge(out[key] as object | undefined, value as object);
    } else out[key] = value;
  }
  return out as T;
}

function clean(details: PersonalDetailsBody | null | undefined): PersonalDetails | undefined {
  return details == null ? undefined : merge<PersonalDetails>(undefined, details);
}

async function create({ request, ctx }: RouteRequest): Promise<Response> {
  const body = parse(CustomerCreateBodySchema, await readJson(request));
  if (ctx.store.customers.has(body.customer_id)) {
    throw new ApiError(409, 'CUSTOMER_ALREADY_EXISTS', 'Customer already exists');
  }
  const customer: CustomerRecord = { customer_id: body.customer_id };
  const details = clean(body.personal_details);
  if (details) customer.personal_details = details;
  ctx.store.customers.set(customer.customer_id, customer);
  ctx.changed();
  return json(customerJson(customer), 201);
}

function retrieve({ params, ctx }: RouteRequest): Response {
  return json(customerJson(findCustomer(ctx, params.customer_id!)));
}

async function update({ request, params, ctx }: RouteRequest): Promise<Response> {
  const customer = findCustomer(ctx, params.customer_id!);
  const body = parse(CustomerUpdateBodySchema, await readJson(request));
  if (body.personal_details === null) delete customer.personal_details;
  else if (body.personal_details !== undefined) {
    customer.personal_details = merge(customer.personal_details, body.personal_details);
  }
  ctx.changed();
  return json(customerJson(customer));
}

function listInstruments({ params, ctx }: RouteRequest): Response {
  const customer = findCustomer(ctx, params.customer_id!);
  const items = [...ctx.store.instruments.values()]
    .filter((i) => i.customer_id === customer.customer_id && i.active)
    .map(instrumentJson);
  return json(items);
}

function deactivateInstrument({ params, ctx }: RouteRequest): Response {
  const customer = findCustomer(ctx, params.customer_id!);
  const instrument = ctx.store.instruments.get(params.token!);
  if (!instrument || instrument.customer_id !== customer.customer_id) {
    throw notFound('Payment instrument not found');
  }
  instrument.active = false;
  ctx.changed();
  return empty(204);
}

export const customerRoutes: Route[] = [
  { method: 'POST', path: '/v0.1/customers', access: PAYMENT_INSTRUMENTS, handler: create },
  {
    method: 'GET',
    path: '/v0.1/customers/:customer_id',
    access: PAYMENT_INSTRUMENTS,
    handler: retrieve,
  },
  {
    method: 'PUT',
    path: '/v0.1/customers/:customer_id',
    access: PAYMENT_INSTRUMENTS,
    handler: update,
  },
  {
    method: 'GET',
    path: '/v0.1/customers/:customer_id/payment-instruments',
    access: PAYMENT_INSTRUMENTS,
    handler: listInstruments,
  },
  {
    method: 'DELETE',
    path: '/v0.1/customers/:customer_id/payment-instruments/:token',
    access: PAYMENT_INSTRUMENTS,
    handler: deactivateInstrument,
  },
];
