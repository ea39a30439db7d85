/**
 * The store contract's optional parts, each tested when the store has it: the watched
 * checkouts (`watch`, `due`, `unwatch`), the rate counters (`hit`) and the records (`read`,
 * `swap`, `write`, `remove`).
 */
import type { CounterStore, PaymentStore, RecordStore, WatchStore } from '../store/types.ts';
import { equal, eventually, ok, pause } from './assert.ts';
import type { ContractContext } from './context.ts';

function part<Part>(store: PaymentStore, names: readonly string[], what: string): Part {
  const has = store as unknown as Record<string, unknown>;
  ok(
    names.every((name) => typeof has[name] === 'function'),
    `the store keeps ${what}: it needs ${names.join(', ')}`,
  );
  return store as unknown as Part;
}

export function watchTests(c: ContractContext): void {
  const { test, fresh } = c;
  const watched = async () =>
    part<WatchStore>(await c.store(), ['watch', 'due', 'unwatch'], 'watched checkouts');
  // The handler's own shape: one set per merchant, with its hash tag.
  const set = () => `open:{${fresh('M')}}`;

  test('due gives the checkouts due by now, soonest first, at most limit', async () => {
    const s = await watched();
    const name = set();
    await s.watch(name, 'late', 3_000);
    await s.watch(name, 'first', 1_000);
    await s.watch(name, 'second', 2_000);
    await s.watch(name, 'future', 9_000);
    equal(await s.due(name, 5_000, 2, 60_000), ['first', 'second'], 'the first two due');
    equal(await s.due(name, 5_000, 10, 60_000), ['late'], 'the rest due');
  });

  test('a checkout taken is held for holdMs: no second caller takes it meanwhile', async () => {
    const [one, two] = [await watched(), await watched()];
    const name = set();
    for (let i = 0; i < 20; i += 1) await one.watch(name, `co_${i}`, 1_000);
    // Many callers at once, as instances reconciling together: each id goes to one of them.
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).due(name, 2_000, 5, 30_000)),
    );
    const taken = batches.flat();
    equal(taken.length, 20, `checkouts taken (${taken.join(' ')})`);
    equal(new Set(taken).size, 20, `distinct checkouts taken (${taken.join(' ')})`);
    equal(await one.due(name, 31_000, 50, 30_000), [], 'due before the hold ends');
    equal((await one.due(name, 32_000, 50, 30_000)).length, 20, 'due once the hold ended');
  });

  test('watch again moves a checkout; unwatch removes it', async () => {
    const s = await watched();
    const name = set();
    await s.watch(name, 'a', 1_000);
    await s.watch(name, 'b', 1_000);
    await s.watch(name, 'a', 50_000);
    await s.unwatch(name, 'b');
    equal(await s.due(name, 10_000, 10, 1_000), [], 'due at 10 000');
    equal(await s.due(name, 50_000, 10, 1_000), ['a'], 'due at 50 000');
    await s.unwatch(name, 'missing');
  });

  test('sets are apart: one merchant’s checkouts are not another’s', async () => {
    const s = await watched();
    const [one, other] = [set(), set()];
    await s.watch(one, 'x', 1_000);
    equal(await s.due(other, 5_000, 10, 1_000), [], 'due in the other set');
    equal(await s.due(one, 5_000, 10, 1_000), ['x'], 'due in its own set');
  });
}

export function counterTests(c: ContractContext): void {
  const { test, fresh, shortMs } = c;
  const counting = async () => part<CounterStore>(await c.store(), ['hit'], 'counters');

  test('hit counts each counter in its window, several at once, and says when it ends', async () => {
    const s = await counting();
    const tag = fresh('M');
    // Two under one hash tag (the handler's shape), one under another, one with none.
    const counters = [
      { key: `rate:{${tag}}:a`, windowMs: 60_000 },
      { key: `rate:{${tag}}:b`, windowMs: 20_000 },
      { key: `rate:{${tag}-other}:c`, windowMs: 60_000 },
      { key: `rate:${tag}:d`, windowMs: 60_000 },
    ];
    const first = await s.hit(counters);
    const second = await s.hit(counters);
    equal(
      [...first, ...second].map((state) => state.hits),
      [1, 1, 1, 1, 2, 2, 2, 2],
      'hits',
    );
    const [a, b] = second;
    ok(
      a !== undefined && a.resetInMs > 20_000 && a.resetInMs <= 60_000,
      `a 60 s window ends in ${a?.resetInMs} ms`,
    );
    ok(
      b !== undefined && b.resetInMs > 0 && b.resetInMs <= 20_000,
      `a 20 s window ends in ${b?.resetInMs} ms`,
    );
  });

  test('concurrent hits on one counter are each counted once', async () => {
    const [one, two] = [await counting(), await counting()];
    const counter = [{ key: `rate:{${fresh('M')}}:burst`, windowMs: 60_000 }];
    const states = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).hit(counter)),
    );
    const hits = states.map((state) => state[0]?.hits ?? 0).sort((x, y) => x - y);
    equal(
      hits,
      Array.from({ length: 20 }, (_, i) => i + 1),
      'the hits each call saw',
    );
  });

  test('a counter starts again once its window ended', async () => {
    const s = await counting();
    const counter = [{ key: `rate:{${fresh('M')}}:short`, windowMs: shortMs }];
    equal((await s.hit(counter))[0]?.hits, 1, 'the first hit');
    await pause(shortMs);
    await eventually('the window to end', shortMs * 4, async () => {
      const hits = (await s.hit(counter))[0]?.hits;
      return hits === 1;
    });
  });
}

export function recordTests(c: ContractContext): void {
  const { test, fresh, shortMs } = c;
  const kept = async () =>
    part<RecordStore>(await c.store(), ['read', 'swap', 'write', 'remove'], 'records');
  const key = () => fresh('basket:M1:b');

  test('swap sets a record only over the value expected; read gives what is set', async () => {
    const r = await kept();
    const k = key();
    equal(await r.read(k), undefined, 'read of a record never set');
    equal(await r.swap(k, 'other', 'a', 60_000), false, 'swap from a value not there');
    equal(await r.swap(k, undefined, 'a', 60_000), true, 'swap from nothing');
    equal(await r.read(k), 'a', 'read after the swap');
    equal(await r.swap(k, undefined, 'b', 60_000), false, 'swap from nothing, over a value');
    equal(await r.swap(k, 'a', 'b', 60_000), true, 'swap from the value there');
    equal(await r.read(k), 'b', 'read after the second swap');
  });

  test('of many instances swapping from one value at once, exactly one wins', async () => {
    const [one, two] = [await kept(), await kept()];
    const k = key();
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? one : two).swap(k, undefined, `checkout-${i}`, 60_000),
      ),
    );
    equal(wins.filter(Boolean).length, 1, 'swaps that won');
    equal(await one.read(k), `checkout-${wins.indexOf(true)}`, 'the record');
  });

  test('a record is gone once its time is over, and can be set from nothing again', async () => {
    const r = await kept();
    const k = key();
    equal(await r.swap(k, undefined, 'short', shortMs), true, 'swap from nothing');
    await pause(shortMs);
    await eventually('the record to expire', shortMs * 4, async () => {
      return (await r.read(k)) === undefined;
    });
    equal(await r.swap(k, 'short', 'late', 60_000), false, 'swap from the expired value');
    equal(await r.swap(k, undefined, 'again', 60_000), true, 'swap from nothing after expiry');
  });

  test('write sets a record whatever it held, remove takes it away, and a write expires', async () => {
    const r = await kept();
    const k = key();
    await r.write(k, 'step-1', 60_000);
    equal(await r.read(k), 'step-1', 'read after write');
    await r.write(k, 'step-2', 60_000);
    equal(await r.read(k), 'step-2', 'read after a second write');
    equal(await r.swap(k, 'step-2', 'step-3', 60_000), true, 'swap from a written value');
    await r.remove(k);
    equal(await r.read(k), undefined, 'read after remove');
    await r.remove(k);
    equal(await r.read(k), undefined, 'read after removing nothing');
    await r.write(k, 'short', shortMs);
    await pause(shortMs);
    await eventually('the written record to expire', shortMs * 4, async () => {
      return (await r.read(k)) === undefined;
    });
  });
}
