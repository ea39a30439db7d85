// Every request and response example that the provider's OpenAPI document
// gives for the seed's endpoints must parse with our schema for that body, and
// so must the component schemas' own examples. The endpoint table is in
// conformance-endpoints.ts, the walk over the document in conformance-openapi.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import {
  CurrencyCodeSchema,
  MandateBodySchema,
  MandateResponseSchema,
  PaymentInstrumentSchema,
  ReaderCreateBodySchema,
  ReaderSchema,
} from '../../../src/schemas/index.ts';
import { type Endpoint, type Schema, SEED_ENDPOINTS } from './conformance-endpoints.ts';
import { examplesOf, isObject, type Json, resolve, spec } from './conformance-openapi.ts';

/**
 * Examples we refuse on purpose. Each row is asserted to still fail, so the
 * table stays true when schemas change. None at present: every example of the
 * seed's endpoints parses. Worth knowing: the process-card example's number
 * (1234567890123456) fails Luhn; the schema checks only its form and leaves
 * Luhn to the card rules and the sandbox, so it parses.
 */
const DELIBERATELY_REJECTED: { endpoint: string; status: string; example: string; why: string }[] =
  [];

const isRejected = (endpoint: string, status: string, example: string) =>
  DELIBERATELY_REJECTED.some(
    (row) => row.endpoint === endpoint && row.status === status && row.example === example,
  );

function operation(endpoint: Endpoint): Json {
  const path = spec.paths;
  const item = isObject(path) ? path[endpoint.path] : undefined;
  const op = isObject(item) ? item[endpoint.method] : undefined;
  assert.ok(isObject(op), `${endpoint.method.toUpperCase()} ${endpoint.path} is in the document`);
  return op;
}

function explain(result: { success: boolean; error?: { issues: unknown[] } }): string {
  return result.success ? '' : JSON.stringify(result.error?.issues.slice(0, 3));
}

let checked = 0;

describe('conformance with the provider OpenAPI examples', () => {
  for (const endpoint of SEED_ENDPOINTS) {
    const label = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    describe(label, () => {
      const op = operation(endpoint);

      test('documents a JSON request body exactly when we have a request schema', () => {
        const body = resolve(op.requestBody);
        const hasJson =
          isObject(body) && isObject(body.content) && 'application/json' in body.content;
        assert.equal(hasJson, endpoint.request !== undefined);
      });

      if (endpoint.request) {
        const schema = endpoint.request;
        for (const example of examplesOf(op.requestBody, 'request')) {
          const rejected = isRejected(label, 'request', example.name);
          test(`request "${example.name}" ${rejected ? 'is rejected (listed)' : 'parses'}`, () => {
            const result = z.safeParse(schema, example.value);
            assert.equal(result.success, !rejected, explain(result));
            checked++;
          });
        }
      }

      const responses = isObject(op.responses) ? op.responses : {};
      for (const [status, response] of Object.entries(responses)) {
        const schema = endpoint.responses[status];
        const examples = examplesOf(response, 'response');
        if (!schema) {
          test(`${status} has no JSON body`, () => assert.deepEqual(examples, []));
          continue;
        }
        for (const example of examples) {
          const rejected = isRejected(label, status, example.name);
          test(`${status} "${example.name}" ${rejected ? 'is rejected (listed)' : 'parses'}`, () => {
            const result = z.safeParse(schema, example.value);
            assert.equal(result.success, !rejected, explain(result));
            checked++;
          });
        }
      }

      test('every status we map is documented', () => {
        for (const status of Object.keys(endpoint.responses))
          assert.ok(status in responses, status);
      });
    });
  }

  test('the table covers 37 operations (the seed 36 plus update operator)', () => {
    assert.equal(SEED_ENDPOINTS.length, 37);
    assert.equal(new Set(SEED_ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size, 37);
  });

  test('every listed rejection names a real endpoint', () => {
    for (const row of DELIBERATELY_REJECTED) {
      assert.ok(
        SEED_ENDPOINTS.some((e) => `${e.method.toUpperCase()} ${e.path}` === row.endpoint),
        row.endpoint,
      );
    }
  });
});

// Component schemas that carry a whole example of their own, reached from the
// seed's endpoints. Each maps to the schema of ours that parses that part.
const COMPONENT_EXAMPLES: Record<string, Schema> = {
  MandatePayload: MandateBodySchema,
  MandateResponse: MandateResponseSchema,
  PaymentInstrumentResponse: PaymentInstrumentSchema,
  Currency: CurrencyCodeSchema,
  ReaderID: ReaderSchema.shape.id,
  ReaderName: ReaderCreateBodySchema.shape.name,
  ReaderStatus: ReaderSchema.shape.status,
  ReaderPairingCode: ReaderCreateBodySchema.shape.pairing_code,
  Meta: ReaderCreateBodySchema.shape.meta,
};

/** Names of the component schemas reachable from the seed's endpoints. */
function reachableComponents(): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop() ?? '';
      if (node.$ref.startsWith('#/components/schemas/') && !seen.has(name)) {
        seen.add(name);
        visit(resolve(node));
      } else if (!node.$ref.startsWith('#/components/schemas/')) {
        visit(resolve(node));
      }
      return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const endpoint of SEED_ENDPOINTS) visit(operation(endpoint));
  return seen;
}

describe('component schema examples', () => {
  const components =
    isObject(spec.components) && isObject(spec.components.schemas) ? spec.components.schemas : {};
  const reachable = reachableComponents();
  for (const [name, component] of Object.entries(components)) {
    if (!reachable.has(name) || !isObject(component) || component.example === undefined) continue;
    test(`${name} example parses`, () => {
      const schema = COMPONENT_EXAMPLES[name];
      assert.ok(schema, `no schema mapped for component ${name}`);
      const result = z.safeParse(schema, component.example);
      assert.ok(result.success, explain(result));
      checked++;
    });
  }

  test('a fair number of examples was checked', () => {
    // Guards against the walk silently finding nothing (e.g. a broken $ref resolver).
    assert.ok(checked >= 100, `only ${checked} examples checked`);
  });
});
