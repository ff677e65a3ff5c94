/**
 * A case that behaves differently when it is run again (a function whose result depends on timing
 * or on state kept between calls: here, on how often it was called) is reported as such: the
 * report draws the failure as it was found and says what the case did when run again, so that the
 * user knows the counterexample may not reproduce. The verdict stays a failure. Sync and async,
 * random and exhaustive.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { checkSpecAsync, checkSpecExhaustiveAsync } from '../src/async-checks.ts';
import { lazy, type Lazy } from '../src/lazy/lazy.ts';
import { length } from '../src/lazy/list.ts';
import { Cons, NIL, type List } from '../src/lazy/cell.ts';
import { take, takeSpec } from '../examples/take.ts';
import { takeAsync, takeAsyncSpec } from '../examples/iterators/take-async.ts';

/** `take`, but its first call throws. */
function throwsOnFirstCall(): (n: Lazy<number>, xs: List<number>) => List<number> {
  let calls = 0;
  return (n, xs) => {
    if (calls++ === 0) throw new Error('only on the first call');
    return take(n, xs);
  };
}

/** `take`, but its first call throws, and every later one forces its list's spine before it returns. */
function throwsThenForcesAll(): (n: Lazy<number>, xs: List<number>) => List<number> {
  let calls = 0;
  return (n, xs) => {
    if (calls++ === 0) throw new Error('only on the first call');
    length(xs);
    return take(n, xs);
  };
}

/** `takeAsync`, but its first call rejects. */
function asyncThrowsOnFirstCall(): typeof takeAsync {
  let calls = 0;
  return (n, xs) => {
    if (calls++ === 0) throw new Error('only on the first call');
    return takeAsync(n, xs);
  };
}

const DIFFERED = /\nThe function behaved differently when its case was run again: /;

test('a sync function that fails on its first call only: the report draws the failure found and says that, run again, its case passed, at random and exhaustively', () => {
  const random = checkSpec(takeSpec, throwsOnFirstCall(), { seed: 1, unicode: false });
  const exhaustive = checkSpecExhaustive(takeSpec, throwsOnFirstCall(), { depth: 3, unicode: false });
  for (const r of [random, exhaustive]) {
    assert.equal(r.passed, false);
    assert.match(r.message, /^Failed: the function threw/);
    assert.match(r.message, /\nThe function threw: Error: only on the first call/);
    assert.match(r.message, new RegExp(`${DIFFERED.source}it passed\\.`));
    assert.equal((r.counterexample?.error?.thrown as Error).message, 'only on the first call');
  }
});

test('a sync function that throws on its first call and fails otherwise later: the report draws the throw and says how its case failed when run again', () => {
  const r = checkSpec(takeSpec, throwsThenForcesAll(), { seed: 1, unicode: false });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function threw/);
  assert.match(r.message, new RegExp(`${DIFFERED.source}it did not throw, and the spec does not match the function`));
});

test('an async function that fails on its first call only: the report says that, run again, its case passed, at random and exhaustively', { timeout: 60_000 }, async () => {
  const random = await checkSpecAsync(takeAsyncSpec, asyncThrowsOnFirstCall(), { seed: 1, unicode: false });
  const exhaustive = await checkSpecExhaustiveAsync(takeAsyncSpec, asyncThrowsOnFirstCall(), { depth: 2, unicode: false });
  for (const r of [random, exhaustive]) {
    assert.equal(r.passed, false);
    assert.match(r.message, /\nThe function threw: Error: only on the first call/);
    assert.match(r.message, new RegExp(`${DIFFERED.source}it passed\\.`));
  }
});

test('a sync function that fails on its odd calls only: run again for the report, its case passed, and the report says so', () => {
  let calls = 0;
  const oddCalls = (n: Lazy<number>, xs: List<number>) => {
    if (calls++ % 2 === 0) length(xs);
    return take(n, xs);
  };
  const r = checkSpec(takeSpec, oddCalls, { seed: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the spec does not match the function/);
  assert.match(r.message, new RegExp(`${DIFFERED.source}it passed\\.`));
});

test('a sync function that fails alike but with other demands when its case is run again: the report says which demands differed', () => {
  let calls = 0;
  // Odd calls force the list, then take's; even calls look at the list first and, for an empty one, never force the count.
  const alternates = (n: Lazy<number>, xs: List<number>): List<number> =>
    calls++ % 2 === 0
      ? lazy(() => (xs.force(), take(n, xs).force()))
      : lazy(() => (xs.force() instanceof Cons ? take(n, xs).force() : NIL));
  const r = checkSpec(takeSpec, alternates, { seed: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the spec does not match the function/);
  assert.match(r.message, new RegExp(`${DIFFERED.source}it made other demands: on args\\[0\\] _, where it was 0\\.`));
});

test('a deterministic failure says nothing of running again', () => {
  const r = checkSpec(takeSpec, (n: Lazy<number>, xs: List<number>) => (length(xs), take(n, xs)), { seed: 1 });
  assert.equal(r.passed, false);
  assert.doesNotMatch(r.message, DIFFERED);
});
