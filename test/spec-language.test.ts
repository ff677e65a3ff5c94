import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cons, defer, elementAt, fieldDemand, fromArray, isCapped, lazy, lazyNone, lazySome, lazyOf, lazyTuple, list, List, nil, now, number, option, prettyDemand,
  prettyValue, spineForced, anyElementDemanded, thunk, toDemand, tuple, UnevaluatedError, type Lazy, type LazyList,
} from '../src/index.ts';

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

// ---------------------------------------------------------------------------------------------
// Helpers for demands in value form

test('spineForced counts the cons cells a demand evaluated, elementAt gives an element demand or thunk, anyElementDemanded whether map applied its function', () => {
  const d = cons(thunk, cons(2, thunk)); // _ : 2 : _
  assert.deepEqual([spineForced(d), spineForced(cons(1, nil)), spineForced(thunk), spineForced(nil)], [2, 1, 0, 0]);
  assert.deepEqual([isCapped(d), isCapped(cons(1, nil))], [false, true]);
  assert.deepEqual([0, 1, 2, 5].map((i) => prettyValue(elementAt(d, i))), ['_', '2', '_', '_']);
  assert.equal(elementAt(cons(1, nil), 1), thunk, 'past the end');
  assert.deepEqual([anyElementDemanded(d), anyElementDemanded(cons(thunk, cons(thunk, nil))), anyElementDemanded(thunk)], [true, false, false]);
});

test('lazySome, lazyNone and lazyTuple build evaluated layers at lazy positions, and fieldDemand reads a component or thunk', () => {
  assert.equal(prettyDemand(toDemand(lazySome(thunk), lazyOf(option(lazyOf(number))))), 'Some _');
  assert.equal(prettyDemand(toDemand(lazySome(now(3)), lazyOf(option(lazyOf(number))))), 'Some 3');
  assert.equal(prettyDemand(toDemand(lazyNone, lazyOf(option(number)))), 'None');
  const pairs = list(tuple(lazyOf(number), lazyOf(number)));
  assert.equal(prettyDemand(toDemand(cons(lazyTuple(thunk, now(2)), thunk), pairs)), '(_, 2) : _');
  assert.equal(prettyValue(fieldDemand(lazyTuple(thunk, now(2)), 1)), '2');
  assert.equal(fieldDemand(lazyTuple(thunk, now(2)), 0), thunk);
  assert.equal(fieldDemand(thunk, 0), thunk, 'the pair itself not evaluated');
});
