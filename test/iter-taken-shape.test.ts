/**
 * Where `taken` goes follows the declared shape: a source declared re-iterable (`iterable(…)`,
 * `asyncIterable(…)`) is left `taken` when its iterator is taken and not closed before its first
 * pull, whatever its value looks like (an array's iterator has `next` too), in what the spec
 * helpers predict as in what the observation records.
 */
import { test, describe } from 'node:test';
import mapES from 'es-iterator-helpers/Iterator.prototype.map';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { number } from '../src/demand/primitives.ts';
import { spec } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { asyncIterable, closedAfter, iterable, pulls, Source } from '../src/iter/index.ts';

/** Arrays of up to 3 digits, as `f` makes a source of each. */
const sourcesOf = <S>(f: (xs: number[]) => S) => fc.array(fc.nat(9), { maxLength: 3 }).map(f);

describe('a source declared re-iterable is left taken, before its first pull, whatever its value looks like', () => {
  test("closedAfter no pull over iterable(number) given array iterators (next, no return) predicts taken, as a function taking the iterator and closing it if it can leaves it", () => {
    const arrayIterators = withArbitrary(sourcesOf((xs) => xs.values() as Iterable<number>), iterable(number));
    const closesBeforePulling = spec([arrayIterators], number, (predict, _d, xs) => predict(closedAfter(pulls([], 'return'), xs)));
    const takesAndCloses = (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]();
      it.return?.();
      return 0;
    };
    const r = checkSpec(closesBeforePulling, takesAndCloses, { trials: 50, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });

  test("pulledAsResult with closesUnstarted over iterable(number) given iterators without return passes a TC39 helper's map (es-iterator-helpers) over the source's iterator", () => {
    // Iterators of generated sources, which the spec can read its elements from.
    const iterators = withArbitrary(sourcesOf((xs) => new Source({ elements: xs, infinite: false, hasReturn: false }).iterator() as Iterable<number>), iterable(number));
    const closing = specOf([iterators], iterable(number), ({ pulledAsResult }) => [pulledAsResult({ closesUnstarted: true })]);
    const mapHelper = (xs: Iterable<number>) => mapES(xs[Symbol.iterator](), (x: number) => x) as unknown as Iterable<number>;
    for (const compare of ['exact', 'noStricter'] as const) {
      const r = checkSpec(closing, mapHelper, { trials: 300, seed: 1, compare });
      assert.equal(r.passed, true, `${compare}: ${r.message}`);
    }
  });

  test('closedAfter no pull over asyncIterable(number) given async iterators without return predicts taken, as the function leaves it', async () => {
    const iteratorOf = (xs: number[]): AsyncIterable<number> => {
      let i = 0;
      return { next: async () => (i < xs.length ? { done: false, value: xs[i++]! } : { done: true, value: undefined }), [Symbol.asyncIterator]() { return this; } } as unknown as AsyncIterable<number>;
    };
    const asyncIterators = withArbitrary(sourcesOf(iteratorOf), asyncIterable(number));
    const closesBeforePulling = spec([asyncIterators], number, (predict, _d, xs) => predict(closedAfter(pulls([], 'return'), xs)));
    const takesAndCloses = async (xs: AsyncIterable<number>) => {
      await xs[Symbol.asyncIterator]().return?.();
      return 0;
    };
    const r = await checkSpecAsync(closesBeforePulling, takesAndCloses, { trials: 30, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });
});
