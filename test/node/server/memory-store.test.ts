// The memory store's records, by the contract every store keeps (test/node/support/records.ts).
import { describe } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.ts';
import { recordContract } from '../support/records.ts';

describe('the memory store keeps records', () => {
  const store = createMemoryStore();
  let n = 0;
  recordContract(
    () => store,
    () => {
      n += 1;
      return `basket:M1:b${n}`;
    },
  );
});
