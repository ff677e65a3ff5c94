/**
 * Where `taken` goes follows the declared shape: a source declared re-iterable (`iterable(…)`,
 * `asyncIterable(…)`) is left `taken` when its iterator is taken and not closed before its first
 * pull, whatever its value looks like (an array's iterator has `next` too), in what the spec
 * helpers predict as in what the observation records. And `Ahead` (an iteration read ahead) is a
 * whole iteration's: after a pull it means nothing, and a demand holding it there is refused.
 */
import { test, describe } from 'node:test';
import mapES from 'es-iterator-helpers/Iterator.prototype.map';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { number } from '../src/demand/primitives.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { cons, type List } from '../src/lazy/list.ts';
import { now, type Lazy } from '../src/lazy/lazy.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { Ahead, asyncIterable, closedAfter, iterable, pulls, readAhead, Source, taken } from '../src/iter/index.ts';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyShape = Shape<any>;
/** Whether reading `d` at `shape` is refused with a mismatch whose message matches each of `patterns`. */
const refused = (d: unknown, shape: AnyShape, ...patterns: RegExp[]) =>
  assert.throws(() => toDemand(d, shape), (e: unknown) => e instanceof ShapeMismatchError && patterns.every((p) => p.test(e.message)), String(shape.name));
/** `1 :` then `rest`. */
const afterOnePull = (rest: unknown) => cons(1, rest as List<number>);

describe('Ahead is the reading ahead of a whole iteration: after a pull it is refused, naming what to write', () => {
  const why = [/Ahead after a pull/, /whole iteration/, /readAhead\(2, pulls\(\[1, 2\], 'open'\)\)/];

  test('1 : Ahead 2 taken is refused at asyncIterable(number) and iterable(number), where 1 : taken is', () => {
    for (const shape of [asyncIterable(number), iterable(number)]) {
      refused(afterOnePull(readAhead(2, taken)), shape, ...why);
      refused(afterOnePull(now(new Ahead(2, taken as unknown as Lazy<unknown>))), shape, ...why);
    }
  });

  test('1 : Ahead 2 (2 : _) is refused; Ahead 2 (1 : 2 : _) and Ahead 2 taken, which the observation records, are read', () => {
    refused(afterOnePull(readAhead(2, pulls([2], 'open'))), asyncIterable(number), ...why);
    assert.equal(prettyDemand(toDemand(readAhead(2, pulls([1, 2], 'open')), asyncIterable(number))), 'Ahead 2 (1 : 2 : _)');
    assert.equal(prettyDemand(toDemand(readAhead(2, taken), asyncIterable(number))), 'Ahead 2 taken');
  });

  test('a spec predicting 1 : Ahead 2 (2 : _) is a SpecError naming it, not a failure blamed on the function', async () => {
    const wrong = spec([asyncIterable(number)], asyncIterable(number), (predict) => predict(afterOnePull(readAhead(2, pulls([2], 'open'))) as never));
    await assert.rejects(
      checkSpecAsync(wrong, (xs: AsyncIterable<number>) => xs, { trials: 20, seed: 1 }),
      (e: unknown) => e instanceof SpecError && /prediction does not fit its argument/.test(e.message) && /Ahead after a pull/.test(e.message),
    );
  });
});
