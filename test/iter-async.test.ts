/**
 * Async iterables: observed pulls, closing, throwing in and reading ahead (several next() calls
 * pending at once), recorded in the order the pulls were made whatever order they settle in;
 * random async sources (delays, rejections) and consumers (reading ahead, closing); asynchronous
 * checks of async generators and of async functions, whose Promise is awaited.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  number, tuple, spec, checkSpec, checkSpecExhaustive, checkSpecAsync, assertSpecAsync, iterable, asyncIterable, asyncIterator, AsyncSource, observeDetailedAsync, observeDetailed,
  normalize, whnf, toContext, toDemand, prettyDemand, prettyValue, pulls, readAhead, aheadOf, pullCount, endOf, type AsyncSourcePlan,
} from '../src/index.ts';
import fc from 'fast-check';
import { generateInputs } from '../src/engine/generate.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { Seed } from '../src/engine/random.ts';
import { randomContext } from '../src/engine/context.ts';
import { asyncNumbers, takeAsync, takeAsyncPullsOneMore, takeAsyncSpec } from '../examples/iterators/take-async.ts';

const src = (elements: number[], more: Partial<AsyncSourcePlan<number>> = {}) => new AsyncSource({ elements, infinite: false, hasReturn: true, delays: [], ...more });

/** Observes `f` on `inputs` (async iterables of numbers, or numbers), its result an async iterable consumed by `context`. */
async function run(context: Parameters<typeof observeDetailed>[0], f: (...a: any[]) => unknown, ...inputs: unknown[]) {
  const o = await observeDetailedAsync(context, f, inputs, { inputs: inputs.map((x) => (typeof x === 'number' ? number : asyncNumbers)), result: asyncNumbers });
  if (o.error) throw o.error.thrown;
  return { result: prettyDemand(o.result), inputs: o.inputs.map((d) => prettyDemand(d)) };
}

describe('observing a function over an async iterable', () => {
  test('records the pulls of a source and its closing by for await', async () => {
    assert.deepEqual(await run(normalize, takeAsync, 2, src([1, 2, 3])), { result: '1 : 2 : []', inputs: ['2', '1 : 2 : return()'] });
    assert.deepEqual(await run(normalize, takeAsync, 5, src([1, 2])), { result: '1 : 2 : []', inputs: ['5', '1 : 2 : []'] });
  });

  test('records next() calls pending at once as reading ahead, the pulls in the order they were made though they settle in another', async () => {
    // Pull 1 waits 3 turns, pull 2 none: pull 2 settles first.
    const both = async function* (it: AsyncIterable<number>) {
      const i = it[Symbol.asyncIterator]();
      const [a, b] = await Promise.all([i.next(), i.next()]);
      yield a.value + b.value;
    };
    assert.deepEqual(await run(normalize, both, src([1, 2, 3], { delays: [3, 0] })), { result: '3 : []', inputs: ['Ahead 2 (1 : 2 : _)'] });
  });

  test('records a rejecting pull as ⊥, passed on to the result', async () => {
    const source = src([1, 2], { throwAt: 1 });
    assert.deepEqual(await run(normalize, takeAsync, 3, source), { result: '1 : ⊥', inputs: ['3', '1 : ⊥'] });
  });

  test("runs an async generator source's finally when the function closes it", async () => {
    let released = 0;
    async function* resource() {
      try {
        yield 1;
        yield 2;
      } finally {
        released++;
      }
    }
    const o = await observeDetailedAsync(normalize, (it: AsyncIterator<number>) => takeAsync(1, { [Symbol.asyncIterator]: () => it }), [resource()], { inputs: [asyncIterator(number)], result: asyncNumbers });
    assert.equal(prettyDemand(o.inputs[0]!), '1 : return()');
    assert.equal(released, 1);
  });

  test('a context following a demand pulls as far as it says, reading ahead where it says, then closes or throws in', async () => {
    const reading = toContext(toDemand(readAhead(2, pulls([1, 2], 'return')), asyncNumbers));
    assert.deepEqual(await run(reading, takeAsync, 5, src([1, 2, 3])), { result: 'Ahead 2 (1 : 2 : return())', inputs: ['5', '1 : 2 : return()'] });
    const throwing = toContext(toDemand(pulls([1], 'throw'), asyncNumbers));
    assert.deepEqual(await run(throwing, takeAsync, 5, src([1, 2, 3])), { result: '1 : throw()', inputs: ['5', '1 : return()'] });
    assert.deepEqual(await run(whnf, takeAsync, 5, src([1, 2, 3])), { result: '1 : _', inputs: ['5', '1 : _'] });
  });

  test('the demand helpers read through reading ahead', () => {
    const d = readAhead(3, pulls([1, 2], 'return'));
    assert.equal(aheadOf(d), 3);
    assert.equal(pullCount(d), 2);
    assert.equal(endOf(d), 'return');
    assert.equal(aheadOf(pulls([1], 'open')), 1);
  });

  test('an async function returning a Promise is awaited, what it pulls after an await observed', async () => {
    const sum = async (it: AsyncIterable<number>) => {
      let s = 0;
      for await (const x of it) s += x;
      return s;
    };
    const o = await observeDetailedAsync(normalize, sum, [src([1, 2, 3], { delays: [1] })], { inputs: [asyncNumbers], result: number });
    assert.equal(o.error, undefined);
    assert.equal(prettyDemand(o.result), '6');
    assert.equal(prettyDemand(o.inputs[0]!), '1 : 2 : 3 : []');
  });
});

describe('random async sources and consumers', () => {
  test('sources have delays, reject, and may have no return; shrinking drops the delays first', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const [s] = generateInputs([asyncNumbers as Shape<unknown>], Seed.of(i).stream(), 10) as [AsyncSource<number>];
      assert.ok(s instanceof AsyncSource);
      kinds.add(s.plan.delays.some((d) => d > 0) ? 'delays' : 'at once').add(s.plan.throwAt === undefined ? 'no throw' : 'rejects').add(s.plan.hasReturn ? 'return' : 'no return');
    }
    assert.deepEqual([...kinds].sort(), ['at once', 'delays', 'no return', 'no throw', 'rejects', 'return']);
    const late = src([5, 6], { delays: [2, 0, 1] });
    assert.equal(prettyValue(late, asyncNumbers), 'async iter [5, 6] delays [2, 0, 1]');
    const shown = [...shrinkValue(late, asyncNumbers)].map((s) => prettyValue(s, asyncNumbers));
    assert.equal(shown[0], 'async iter [5, 6]');
    assert.ok(shown.includes('async iter [5, 6] delays [1, 0, 1]'), shown.join(' | '));
  });

  test('consumers read ahead, close, throw in, leave and exhaust the result', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 150; i++) {
      const o = await run(randomContext(Seed.of(i), 4), takeAsync, 3, src([1, 2, 3, 4]));
      seen.add(o.result.replace(/\d+/g, 'x'));
    }
    for (const kind of ['x : _', 'return()', 'x : return()', 'x : x : x : []', 'throw()']) assert.ok(seen.has(kind), `${kind} in ${[...seen].join(', ')}`);
    assert.ok([...seen].some((k) => k.startsWith('Ahead')), `reading ahead in ${[...seen].join(', ')}`);
  });
});

describe('checking async functions', () => {
  test('an async generator take meets its spec', async () => {
    await assertSpecAsync(takeAsyncSpec, takeAsync, { trials: 300, seed: 4 });
  });

  test('an async take that pulls n+1 fails with a small counterexample showing the extra pull', async () => {
    const r = await checkSpecAsync(takeAsyncSpec, takeAsyncPullsOneMore, { trials: 300, seed: 1 });
    assert.equal(r.passed, false);
    assert.equal(r.counterexample!.inputs[0], 0);
    assert.equal(prettyDemand(r.counterexample!.predicted[1]!), '_');
    assert.equal(prettyDemand(r.counterexample!.actual[1]!), '[]');
  });

  test('a function pulling an infinite async source for ever is reported as divergent', { timeout: 60_000 }, async () => {
    // Infinite sources only: on a finite or throwing one count fails otherwise (the spec is wrong
    // there), and which failure a seed finds first would depend on the sizes of its trials.
    const infinite = withArbitrary(
      fc.record({ elements: fc.array(fc.nat(9), { minLength: 1, maxLength: 3 }), delays: fc.array(fc.nat(2), { maxLength: 3 }) })
        .map((plan) => new AsyncSource({ ...plan, infinite: true, hasReturn: true }) as AsyncIterable<number>),
      asyncNumbers,
    );
    const all = spec([infinite], number, (predict) => predict(pulls([], 'done')));
    const count = async (it: AsyncIterable<number>) => {
      let n = 0;
      for await (const _ of it) n++;
      return n;
    };
    const r = await checkSpecAsync(all, count, { trials: 100, seed: 2, forceBudget: 5_000 });
    assert.equal(r.passed, false);
    assert.match(r.message, /probably diverges/);
  });

  test('the synchronous checks refuse an async spec or an async function, naming the asynchronous ones', () => {
    assert.throws(() => checkSpec(takeAsyncSpec, takeAsync), /AsyncIterable<number> is async.*checkSpecAsync or assertSpecAsync/);
    const identity = spec([number], number, (predict, _d, n) => predict(n));
    assert.throws(() => checkSpec(identity, (async (n: number) => n) as unknown as (n: number) => number), /an async function.*checkSpecAsync/);
    assert.throws(() => checkSpecExhaustive(identity, (async (n: number) => n) as unknown as (n: number) => number, { depth: 2 }), /an async function.*checkSpecExhaustiveAsync/);
  });

  test('workers are refused for an asynchronous check', async () => {
    await assert.rejects(checkSpecAsync(takeAsyncSpec, takeAsync, { workers: 2 } as never), /workers/);
  });
});

describe('consuming a result whose elements are not primitives', () => {
  const pairs = (n: number) => Array.from({ length: n }, (_, i): [number, number] => [i, i]);
  test('a sync one records its first element, where a context starts its first pull', () => {
    const o = observeDetailed(whnf, (xs: Iterable<[number, number]>) => xs, [pairs(2)], { inputs: [iterable(tuple(number, number))], result: iterable(tuple(number, number)) });
    assert.equal(o.error, undefined);
    assert.equal(prettyDemand(o.result), '(0, 0) : _');
  });

  test('an async one too', async () => {
    const o = await observeDetailedAsync(whnf, async function* () { yield* pairs(2); }, [], { result: asyncIterable(tuple(number, number)) });
    assert.equal(o.error, undefined);
    assert.equal(prettyDemand(o.result), '(0, 0) : _');
  });
});

describe('an asynchronous check split into shards', () => {
  test('runs its shard of the trials, and a failure found in a shard reproduces with the shard named', async () => {
    const shards = await Promise.all(['1/4', '2/4', '3/4', '4/4'].map((shard) => checkSpecAsync(takeAsyncSpec, takeAsync, { seed: 7, trials: 40, shard })));
    assert.deepEqual(shards.map((r) => [r.passed, r.trials]), [[true, 10], [true, 10], [true, 10], [true, 10]]);
    const failing = await checkSpecAsync(takeAsyncSpec, takeAsyncPullsOneMore, { seed: 7, shard: '2/4' });
    assert.equal(failing.passed, false);
    assert.match(failing.message, /Reproduce with the option \{ seed: 7, shard: '2\/4' \}\.$/);
  });
});
