// package.json `engines` against what the package needs. Its Node entries are ES modules that
// a CommonJS app (NestJS's default build) `require`s through their `default` condition: Node
// does that from 22.12 (22.0 to 22.11 throw ERR_REQUIRE_ESM, where `import` works); so the
// floor is 22.12, and the documents that say which Node it needs say the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const PACKAGE = JSON.parse(read('package.json')) as {
  type: string;
  engines: { node: string };
  exports: Record<string, string | Record<string, string>>;
};

/** The first Node that loads an ES module with require(). */
const REQUIRE_ESM = '22.12';

test('engines names the first Node on which every entry loads, require() from CommonJS included', () => {
  assert.equal(PACKAGE.type, 'module');
  const required = Object.entries(PACKAGE.exports).filter(
    ([, target]) => typeof target === 'object' && target.default?.endsWith('.js'),
  );
  assert.deepEqual(
    required.map(([entry]) => entry),
    ['./server', './server/testing', './sandbox', './schemas'],
  );
  assert.equal(PACKAGE.engines.node, `>=${REQUIRE_ESM}`);
});

test('the README and docs/server.md name that Node', () => {
  for (const path of ['README.md', 'docs/server.md']) {
    assert.ok(read(path).includes(`Node ${REQUIRE_ESM} or later`), path);
  }
});
