// docs/server.md's Redis Cluster sample (node-redis's createCluster), as a shop copies it,
// started while its whole cluster is down (a deploy during an outage): it must let the shop
// go on to listen (an awaited connect() rejects when no root node answers, which stops a
// server that awaits it at the top of its module), and reach the cluster once it is back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createCluster } from 'redis';
import { createRedisStore } from '../../../src/server/index.ts';
import { until, within } from '../../shared/until.ts';
import { startRedisCluster } from '../support/redis-topologies.ts';

/** The sample's node-redis cluster lines, its root nodes made `urls`: run, they answer the client. */
function clusterSample(): (
  make: typeof createCluster,
  warn: (error: unknown) => void,
  urls: string[],
) => Promise<ReturnType<typeof createCluster>> {
  const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
  const code = /\n\/\/ Redis Cluster [^\n]*\n(?:\/\/[^\n]*\n)*([\s\S]*?)\nconst clusterIo = /.exec(
    docs,
  )?.[1];
  assert.ok(code, 'docs/server.md: no Redis Cluster sample');
  const rooted = code.replace(/rootNodes: \[[^\]]*\]/, 'rootNodes: urls.map((url) => ({ url }))');
  assert.notEqual(rooted, code, 'the sample names its root nodes');
  const AsyncFunction = (async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<never>;
  const run = new AsyncFunction('createCluster', 'warn', 'urls', `${rooted}\nreturn cluster;`);
  return (make, warn, urls) => run(make, warn, urls);
}

test("docs/server.md's Cluster sample, the cluster down at start: the shop goes on, and the store answers once the cluster is back", async (t) => {
  const cluster = await startRedisCluster();
  t.after(() => cluster.stop());
  for (const node of cluster.nodes) await node.kill();
  const warned: unknown[] = [];
  const client = await within(
    'the sample to let the shop go on while the cluster is down',
    clusterSample()(
      createCluster,
      (error) => warned.push(error),
      cluster.nodes.map((n) => n.url),
    ),
  );
  t.after(() => client.destroy());
  const store = createRedisStore(client);
  await assert.rejects(store.claim('onPaid:M:co_down', 'a', 5_000), 'the store fails at once');
  await until('the sample to say the cluster is down', () => warned.length > 0);
  for (const node of cluster.nodes) await node.restart();
  await until(
    'the store to answer once the cluster is back',
    async () => (await store.claim('onPaid:M:co_back', 'b', 5_000).catch(() => 'down')) !== 'down',
    30_000,
  );
  assert.equal(await store.claim('onPaid:M:co_back', 'c', 5_000), 'running');
});
