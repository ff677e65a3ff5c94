import { test } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { asyncIterable, iterable } from '../src/iter/index.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';

const passOn = specOf([iterable(number)], iterable(number), ({ pulledAsResult }) => [pulledAsResult()]);
const passOnAsync = specOf([asyncIterable(number)], asyncIterable(number), ({ pulledAsResult }) => [pulledAsResult()]);

test('a generator of the other kind where an iterable shape is, sync for async or async for sync, is named as such, with the shape or check to use', async () => {
  await assert.rejects(
    Promise.resolve().then(() =>
      checkSpecAsync(passOn, async function* (xs: Iterable<number>) {
        yield* xs;
      } as never, { trials: 5, seed: 1 }),
    ),
    (e: Error) => e instanceof ShapeMismatchError && /got an async generator object \(an async function\*'s\): an async iterable, which iterable\(…\) does not take: use asyncIterable\(…\)/.test(e.message),
  );
  await assert.rejects(
    Promise.resolve().then(() =>
      checkSpecAsync(passOnAsync, function* (xs: AsyncIterable<number>) {
        void xs;
        yield 1;
      } as never, { trials: 5, seed: 1 }),
    ),
    (e: Error) => e instanceof ShapeMismatchError && /got a generator object \(a function\*'s\): a sync iterable, which asyncIterable\(…\) does not take: use iterable\(…\)/.test(e.message),
  );
  // Not a generator at all: described as before.
  assert.throws(() => checkSpec(passOn, (() => 5) as never, { trials: 1, seed: 1 }), (e: Error) => /got number 5/.test(e.message));
});

test("an iterable combinator given a result or an argument that is not an iterable says so, naming the combinator and the shape it needs", () => {
  const onNumber = specOf([iterable(number)], number, ({ pulledAsResult }) => [pulledAsResult()]);
  const sum = (xs: Iterable<number>) => {
    let s = 0;
    for (const x of xs) s += x;
    return s;
  };
  assert.throws(
    () => checkSpec(onNumber, sum, { trials: 5, seed: 1 }),
    (e: Error) => /pulledAsResult reads the result's demand as an iterable's, but the result is not an iterable \(its demand: number -?\d+\): it applies where the result's shape is iterable\(…\), iterator\(…\) or their async kinds/.test(e.message),
  );
  // (refused by the types too: a cast, as from JavaScript)
  const onNumberArg = specOf([number], iterable(number), ({ pulledAsResult }) => [pulledAsResult() as never]);
  assert.throws(
    () => checkSpec(onNumberArg, function* (n: number) { yield n; }, { trials: 5, seed: 1 }),
    (e: Error) => /pulledAsResult predicts the demand on an iterable argument, but args\[0\] is not an iterable \(got number -?\d+\)/.test(e.message),
  );
});
