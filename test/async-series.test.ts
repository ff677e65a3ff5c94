/**
 * The exhaustive mode over async iterables: async sources are enumerated as sync ones are (their
 * pulls, ending done or rejecting, closable or not), and from depth 1 with two pulls pending at
 * once settling in order or swapped; the contexts pull an async result one or two pulls at a
 * time, then leave it, close it or throw into it. Asynchronous functions are checked by
 * checkSpecExhaustiveAsync, with the same verdict with workers.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { series } from '../src/engine/series.ts';
import { spec, type Spec } from '../src/spec/spec.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { iterable, pulls, readAhead, sourcePrefix, untouched, type AnyIterDemand, type IterationEnd } from '../src/iter/index.ts';
import { checkSpecExhaustive } from '../src/checks.ts';
import { assertSpecExhaustiveAsync, checkSpecExhaustiveAsync } from '../src/async-checks.ts';
import { ExhaustiveCheckFailure, type ExhaustiveResult } from '../src/spec/exhaustive.ts';
import { inferSpec, inferSpecAsync } from '../src/spec/infer.ts';
import { numbers } from '../examples/iterators/take.ts';
import { asyncNumbers, takeAsync, takeAsyncPullsOneMore, takeAsyncSpec } from '../examples/iterators/take-async.ts';
import { bothExhaustiveAsync } from './fixtures/both-exhaustive.ts';
import { importable, runScript } from './fixtures/own-process.ts';
import { pullsOneMoreSeriesCheck, takeAsyncSeriesCheck, takeAsyncWithoutClosing, withoutClosingSeriesCheck } from './fixtures/async-series-checks.ts';

const shown = (c: ExhaustiveResult) => c.counterexample!.inputs.map((v, i) => prettyValue(v, takeAsyncSpec.args[i] as never));

describe('the series of async iterables', () => {
  test('enumerates the sync series of sources, and each again with its pulls settling swapped where they have a depth of 1 or more', () => {
    for (let d = 0; d <= 3; d++) {
      const sync = series(numbers, d).map((s) => `async ${prettyValue(s, numbers)}`);
      const all = series(asyncNumbers, d).map((s) => prettyValue(s, asyncNumbers));
      assert.equal(new Set(all).size, all.length, all.join(' | '));
      assert.deepEqual(all.filter((s) => !s.includes('delays')), sync);
      const swapped = all.filter((s) => s.includes('delays'));
      // Each even pull a turn late, up to the pull that ends the source.
      assert.ok(swapped.every((s) => / delays \[1(, 0, 1)*(, 0)?\]$/.test(s)), swapped.join(' | '));
      // A source without return, or whose return throws, is a level deeper: its pulls have depth d - 1.
      const pullsOfDepthOne = sync.filter((s) => d >= 2 || (d === 1 && !/without return|return throws/.test(s)));
      assert.deepEqual(swapped.map((s) => s.replace(/ delays \[.*\]$/, '')), pullsOfDepthOne);
    }
    assert.deepEqual([0, 1, 2, 3].map((d) => series(asyncNumbers, d).length), [2, 12, 44, 200]);
  });

  test('a source the function never pulls counts once per way of closing: one case stands for all its pulls and orders', async () => {
    const nSpec = spec([number, asyncNumbers], number, (predict, _d, n) => predict(n, untouched));
    // Depth 1: a closable source's pulls have depth 1 there, and come in both settling orders (12 sources).
    const pruned = await checkSpecExhaustiveAsync(nSpec, async (n: number, _xs: AsyncIterable<number>) => n, { depth: 1 });
    assert.equal(pruned.passed, true, pruned.message);
    assert.equal(pruned.cases, 3 * 3); // n in 0, 1, -1; the source closable, without return, or whose return throws
    const whole = await checkSpecExhaustiveAsync(nSpec, async (n: number, _xs: AsyncIterable<number>) => n, { depth: 1, prune: false });
    assert.equal(whole.cases, 3 * series(asyncNumbers, 1).length);
  });

  test('the settling order is refined only where two pulls are pending at once, and a swap is found', async () => {
    // Pulls twice at once, and closes its source when the second pull answers first.
    const closesWhenSwapped = async (xs: AsyncIterable<number>): Promise<number> => {
      const it = xs[Symbol.asyncIterator]();
      const first = await Promise.race([it.next().then(() => 0), it.next().then(() => 1)]);
      if (first === 1) await it.return?.();
      return 0;
    };
    // In order, it pulls the first two answers, two pending at once, and leaves its source open.
    const twoAhead = spec([asyncNumbers], number, (predict, _d, xs) => {
      const read = sourcePrefix(xs, 2);
      predict(readAhead(2, pulls(read.values, (read.values.length === 2 ? 'open' : read.then) as IterationEnd)));
    });
    assert.equal((await checkSpecExhaustiveAsync(twoAhead, closesWhenSwapped, { depth: 0 })).passed, true);
    const r = await checkSpecExhaustiveAsync(twoAhead, closesWhenSwapped, { depth: 3 });
    assert.equal(r.passed, false, r.message);
    // Depth 2: over one element, the swapped second pull answers done, and a return() after the end (in the order of the pulls) changes nothing.
    assert.equal(r.depth, 2);
    assert.match(prettyValue(r.counterexample!.inputs[0], asyncNumbers), /\[0, 0\] delays \[1, 0/);
    assert.match(prettyDemand(r.counterexample!.actual[0]!), /0 : 0 : return\(\)/);
  });
});

describe('specs over the sources of the exhaustive mode', () => {
  // Pulls one element and leaves its source open.
  const firstSpec = <S>(shape: Shape<S>) =>
    spec([shape], number, (predict, _d, xs) => {
      const read = sourcePrefix(xs as AnyIterDemand<number>, 1);
      predict(pulls(read.values, (read.values.length === 1 ? 'open' : read.then) as IterationEnd) as never);
    });

  test('read a sync source off the pulls it is enumerated with, as far as they read', () => {
    const first = (xs: Iterable<number>) => xs[Symbol.iterator]().next().value ?? -1;
    const r = checkSpecExhaustive(firstSpec(iterable(number)), first, { depth: 3 });
    assert.equal(r.passed, true, r.message);
  });

  test('read an async source off the pulls it is enumerated with, as far as they read', async () => {
    const first = async (xs: AsyncIterable<number>) => (await xs[Symbol.asyncIterator]().next()).value ?? -1;
    const r = await checkSpecExhaustiveAsync(firstSpec(asyncNumbers), first, { depth: 3 });
    assert.equal(r.passed, true, r.message);
  });
});

describe('the exhaustive mode over async iterables', () => {
  test('passes the correct async take at depth 4', { timeout: 60_000 }, async () => {
    const r = await checkSpecExhaustiveAsync(takeAsyncSpec, takeAsync, { depth: 4 });
    assert.equal(r.passed, true, r.message);
    assert.ok(r.cases > 100, `${r.cases} cases`);
    await assertSpecExhaustiveAsync(takeAsyncSpec, takeAsync, { depth: 2 });
  });

  test('finds async take pulling n+1 at depth 0 with the minimal case', async () => {
    const r = await checkSpecExhaustiveAsync(takeAsyncSpec, takeAsyncPullsOneMore, { depth: 4 });
    assert.equal(r.passed, false);
    assert.equal(r.depth, 0);
    assert.deepEqual(shown(r), ['0', 'async iter []']);
    const c = r.counterexample!;
    assert.deepEqual([prettyDemand(c.actual[1]!), prettyDemand(c.predicted[1]!)], ['[]', '_']);
    await assert.rejects(assertSpecExhaustiveAsync(takeAsyncSpec, takeAsyncPullsOneMore, { depth: 2 }), ExhaustiveCheckFailure);
  });

  test('finds async take not closing its source with a small case', async () => {
    const r = await checkSpecExhaustiveAsync(takeAsyncSpec, takeAsyncWithoutClosing, { depth: 4 });
    assert.equal(r.passed, false);
    const c = r.counterexample!;
    // Its smallest case: take 0 takes its source's iterator and leaves it open, where take takes none.
    assert.deepEqual([shown(r)[0], prettyDemand(c.actual[1]!), prettyDemand(c.predicted[1]!)], ['0', 'taken', '_']);
  });

  test('the contexts pull an async result one or two at a time, then leave it, close it or throw into it', async () => {
    const seen = new Set<string>();
    // A result that logs what its consumer does, its source untouched.
    const logged = (_xs: AsyncIterable<number>): AsyncIterator<number> & AsyncIterable<number> => {
      let pending = 0;
      let most = 0;
      let pulled = 0;
      const note = (end: string) => seen.add(`${pulled} pulls, ${most} at once, ${end}`);
      const it = {
        next: () => {
          most = Math.max(most, ++pending);
          pulled++;
          return new Promise<IteratorResult<number>>((resolve) => setImmediate(() => (pending--, resolve({ done: false, value: 0 }))));
        },
        return: async () => (note('return'), { done: true as const, value: undefined }),
        throw: async (e: unknown) => (note('throw'), Promise.reject(e)),
        [Symbol.asyncIterator]: () => it,
      };
      return it;
    };
    const any = spec([asyncNumbers], asyncNumbers, (predict) => predict(untouched)) as unknown as Spec<[AsyncIterable<number>], AsyncIterator<number>>;
    await checkSpecExhaustiveAsync(any, logged, { depth: 3 });
    for (const s of ['0 pulls, 0 at once, return', '1 pulls, 1 at once, return', '1 pulls, 1 at once, throw', '2 pulls, 2 at once, return', '2 pulls, 2 at once, throw']) assert.ok(seen.has(s), `${s} in ${[...seen].join(' | ')}`);
  });

  test('the synchronous exhaustive check refuses async shapes, naming the asynchronous one', () => {
    assert.throws(() => checkSpecExhaustive(takeAsyncSpec, takeAsync as never, { depth: 1 }), /checkSpecExhaustiveAsync/);
  });
});

describe('inferring a spec over async iterables', () => {
  test('observes the cases of the series as well as random ones, and proposes take\'s twin', { timeout: 60_000 }, async () => {
    // Depth 2 (201 cases) tells the candidates apart as depth 3 (986) did: the series alone give the same one proposal.
    const exhaustiveOnly = await inferSpecAsync([number, asyncNumbers], asyncNumbers, takeAsync, { trials: 0, depth: 2 });
    assert.ok(exhaustiveOnly.observations > 100, `${exhaustiveOnly.observations} observations`);
    const inferred = await inferSpecAsync([number, asyncNumbers], asyncNumbers, takeAsync, { trials: 100, depth: 2 });
    assert.equal(inferred.observations, 100 + exhaustiveOnly.observations);
    assert.match(inferred.proposals[0]!.code, /onlyWhen\(\(_d, n\) => n > 0, pulledAsResult\(\{ limit: \(n\) => n \}\)\)/);
    await assertSpecExhaustiveAsync(inferred.proposals[0]!.spec, takeAsync, { depth: 2 });
  });

  test('the synchronous inference refuses async shapes, naming the asynchronous one', () => {
    assert.throws(() => inferSpec([number, asyncNumbers], asyncNumbers, takeAsync as never), /inferSpecAsync/);
  });
});

describe('the exhaustive mode over async iterables with workers', () => {
  test('has the counts and the first counterexample of the run in this thread', { timeout: 120_000 }, async () => {
    assert.equal((await bothExhaustiveAsync(takeAsyncSeriesCheck, { depth: 2 })).passed, true);
    assert.equal((await bothExhaustiveAsync(pullsOneMoreSeriesCheck, { depth: 2 })).depth, 0);
    assert.equal((await bothExhaustiveAsync(withoutClosingSeriesCheck, { depth: 3 })).passed, false);
    await assert.rejects(assertSpecExhaustiveAsync(pullsOneMoreSeriesCheck, { depth: 2, workers: 1 }), ExhaustiveCheckFailure);
  });
});

test('a pull made ahead that the function never awaits, meeting a hole of the exhaustive mode, is refined, not an unhandled rejection that ends the process, with workers or not', async () => {
  const child = await runScript(`import ${JSON.stringify(importable(new URL('./fixtures/unawaited-pull.ts', import.meta.url)))};`);
  assert.equal(child.code, 0, child.stderr);
  assert.match(child.stdout, /^passed false: Failed: the spec does not match the function.*\npassed false: Failed: the spec does not match the function/);
});
