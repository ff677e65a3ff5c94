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
