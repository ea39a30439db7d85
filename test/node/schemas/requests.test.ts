// Malformed request bodies are refused, and describeIssue turns the refusal
// into the provider's error: the field's dotted path, MISSING or INVALID, and
// a sentence that names the field. The checkout and reader rows are in
// requests-checkout-bodies.ts and requests-reader-bodies.ts; the customer,
// operator and refund rows are below.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import {
  CheckoutProcessBodySchema,
  CustomerCreateBodySchema,
  describeIssue,
  OperatorCreateBodySchema,
  OperatorUpdateBodySchema,
  ReaderSchema,
  RefundBodySchema,
} from '../../../src/schemas/index.ts';
import {
  type Accepted,
  CHECKOUT_ACCEPTED,
  CHECKOUT_REFUSED,
  type Row,
} from './requests-checkout-bodies.ts';
import { READER_ACCEPTED, READER_REFUSED } from './requests-reader-bodies.ts';

// expected: "<param> <CODE> <start of the message after the param>"
const REFUSED: Row[] = [
  ...CHECKOUT_REFUSED,
  ...READER_REFUSED,

  ['customer without id', CustomerCreateBodySchema, {}, 'customer_id MISSING is required'],
  [
    'customer with empty id',
    CustomerCreateBodySchema,
    { customer_id: '' },
    'customer_id INVALID must not be empty',
  ],
  [
    'operator without password',
    OperatorCreateBodySchema,
    { username: 'op@example.com' },
    'password MISSING is required',
  ],
  [
    'short operator password',
    OperatorCreateBodySchema,
    { username: 'op@example.com', password: 'short' },
    'password INVALID must be at least 8 characters',
  ],
  [
    'operator username not an email',
    OperatorCreateBodySchema,
    { username: 'op', password: 'long enough' },
    'username INVALID must be an email address',
  ],
  [
    'disabled as a string',
    OperatorUpdateBodySchema,
    { disabled: 'yes' },
    'disabled INVALID must be true or false',
  ],
  ['negative refund', RefundBodySchema, { amount: -5 }, 'amount INVALID must be greater than 0'],
  [
    'refund amount as a string',
    RefundBodySchema,
    { amount: '5' },
    'amount INVALID must be a number',
  ],
];

const ACCEPTED: Accepted[] = [...CHECKOUT_ACCEPTED, ...READER_ACCEPTED];

describe('malformed requests name the field', () => {
  for (const [what, schema, input, expected] of REFUSED) {
    test(`${what}: ${expected}`, () => {
      const result = z.safeParse(schema, input);
      assert.equal(result.success, false, 'refused');
      const issue = describeIssue(result.error);
      const [param, code, ...rest] = expected.split(' ');
      assert.equal(issue.param, param);
      assert.equal(issue.code, code);
      assert.ok(
        issue.message.startsWith(`${param} ${rest.join(' ')}`),
        `"${issue.message}" should start with "${param} ${rest.join(' ')}"`,
      );
    });
  }

  test('no message repeats a card number or security code', () => {
    const secrets = ['4200000000000091', '4200 0000 0000 0091', '12345'];
    for (const [, schema, input] of REFUSED) {
      const result = z.safeParse(schema, input);
      const { message } = describeIssue(result.error);
      for (const secret of secrets) assert.ok(!message.includes(secret), message);
    }
  });
});

describe('well-formed requests pass', () => {
  for (const [what, schema, input] of ACCEPTED) {
    test(what, () => {
      const result = z.safeParse(schema, input);
      assert.ok(result.success, JSON.stringify(result.error?.issues));
    });
  }
});

describe('describeIssue on its own', () => {
  test('a schema without hand-written messages still names the field', () => {
    const result = z.safeParse(ReaderSchema, { id: 7 });
    assert.deepEqual(describeIssue(result.error), {
      param: 'id',
      code: 'INVALID',
      message: 'id must be a string',
    });
  });

  test('with the input, an absent field of such a schema is MISSING', () => {
    const input = { name: 'Frontdesk' };
    const result = z.safeParse(ReaderSchema, input);
    assert.deepEqual(describeIssue(result.error, input), {
      param: 'id',
      code: 'MISSING',
      message: 'id is required',
    });
  });

  test('a body that is not an object is named "body"', () => {
    const result = z.safeParse(CheckoutProcessBodySchema, 'card');
    const issue = describeIssue(result.error);
    assert.equal(issue.param, 'body');
    assert.equal(issue.code, 'INVALID');
    assert.match(issue.message, /^body /);
  });

  test('something that is not a zod error still gives a usable answer', () => {
    assert.deepEqual(describeIssue(new Error('boom')), {
      param: 'body',
      code: 'INVALID',
      message: 'body is invalid',
    });
  });
});
