import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defer, fromArray, lazy, List, now, thunk, UnevaluatedError, type Lazy, type LazyList } from '../src/index.ts';

// ---------------------------------------------------------------------------------------------
// `thunk` needs no type argument nor cast (type-level: `tsc` compiles these lines; the run checks they still throw)

test('thunk fits lazy positions without a type argument or a cast, and its members can be read', () => {
  const xs = fromArray([1, 2, 3]);
  // defer of thunk is a Lazy<never>, so a Lazy<number> wherever one is expected, unannotated (was Lazy<unknown>)
  const deferred = defer(() => thunk);
  const asNumber: Lazy<number> = deferred;
  // a thunk's members are a Lazy's (were errors on `never`): no `thunk as Lazy<T>`
  const forcesThunk = lazy(() => thunk.force());
  const alsoNumber: Lazy<number> = forcesThunk;
  assert.equal(thunk.isEvaluated, false);
  // mapped, zipped, in arrays and conditionals: inferred, no `List.mapLazy<number, number>`
  const noElements: LazyList<number> = List.mapLazy(() => thunk, xs);
  const heads = [now(1), thunk].map((h) => h.isEvaluated);
  const pick = (h: Lazy<number>) => (h.isEvaluated ? h : thunk);
  const picked: Lazy<number> = pick(now(2));
  // a strict position cannot be unevaluated: thunk is refused there (`never` took it)
  // @ts-expect-error a number is never unevaluated in a demand
  const strict: number = thunk;
  // @ts-expect-error a strict tuple neither
  const pair: [number, number] = thunk;
  assert.throws(() => asNumber.force(), UnevaluatedError);
  assert.throws(() => alsoNumber.force(), UnevaluatedError);
  assert.equal(List.numCtrForced(noElements), 4);
  assert.deepEqual(heads, [true, false]);
  assert.equal(picked.force(), 2);
  assert.equal(typeof strict, 'function'); // the marker itself, at run time
  assert.equal(pair, thunk);
});
