/**
 * `yield*`, the usual way to write a pass-through or a flatten: it forwards its consumer's
 * `throw()` to the iterator it delegates to, and where that one has no `throw` method closes it
 * (`return()`) and throws a TypeError (ECMA-262, yield*). A consumer's `throw()` that throws any
 * error back got the exception it asked for: the outcome of its throw, not the function's throw.
 * `pulledAsResult({ delegates: true })` predicts the delegation.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { observeDetailed, observeDetailedAsync, toContext } from '../src/demand/observe.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { asyncIterable, AsyncSource, closedAfter, endOf, iterable, pullCount, pulls, Source, thrownInto, untouched, type IterDemand } from '../src/iter/index.ts';
import { sourcePrefix } from '../src/iter/read.ts';
import { expand, flatMap, flatMapSpec } from '../examples/iterators/flat-map.ts';
import { offThread } from './fixtures/off-thread.ts';
import { RUNS } from './fixtures/async-pass-through-runs.ts';

const numbers = iterable(number);
/** Outer sources that end: any flatten pulls an infinite source of empty iterables for ever. */
const nested = iterable(numbers, { finite: true });
const asyncNumbers = asyncIterable(number);
const TRIALS = { trials: 300, seed: 1 };

function* passOn(xs: Iterable<number>): Generator<number> {
  yield* xs;
}
function* passOnFor(xs: Iterable<number>): Generator<number> {
  for (const x of xs) yield x;
}
async function* passOnAsync(xs: AsyncIterable<number>): AsyncGenerator<number> {
  yield* xs;
}
async function* passOnForAsync(xs: AsyncIterable<number>): AsyncGenerator<number> {
  for await (const x of xs) yield x;
}
function* flatten(xss: Iterable<Iterable<number>>): Generator<number> {
  for (const xs of xss) yield* xs;
}
function* flattenFor(xss: Iterable<Iterable<number>>): Generator<number> {
  for (const xs of xss) for (const x of xs) yield x;
}

const asResult = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);
const delegating = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ delegates: true })]);
const delegatingAsync = specOf([asyncNumbers], asyncNumbers, ({ pulledAsResult }) => [pulledAsResult({ delegates: true })]);

/**
 * flatten's spec: each inner source run through before the next outer element is pulled; the one
 * that gave the result's last element closed where the result is (by `throw()` into it where the
 * function `delegates` to it and the result was thrown into), the outer one closed by `return()`.
 */
const flattenSpec = (delegates: boolean) =>
  spec([nested], numbers, (predict, d, xss) => {
    const k = pullCount(d);
    const end = endOf(d);
    const runThrough = end === 'done' || end === 'threw';
    if (k === 0 && !runThrough) return predict(untouched);
    const inners: IterDemand<number>[] = [];
    for (let j = 0, left = k; ; j++) {
      const outer = sourcePrefix(xss, j + 1);
      if (outer.values.length <= j) return predict(pulls(inners, outer.then === 'threw' ? 'threw' : 'done'));
      const xs = outer.values[j]!;
      const read = sourcePrefix(xs, runThrough ? Infinity : left);
      if (!runThrough && read.values.length === left) {
        const prefix = pulls(read.values, 'open');
        const inner = end === 'open' ? prefix : end === 'throw' && delegates ? thrownInto(prefix, xs) : closedAfter(prefix, xs);
        const taken = pulls([...inners, inner], 'open');
        return predict(end === 'open' ? taken : closedAfter(taken, xss));
      }
      left -= read.values.length;
      inners.push(pulls(read.values, read.then === 'threw' ? 'threw' : 'done'));
      if (read.then === 'threw') return predict(closedAfter(pulls(inners, 'open'), xss));
    }
  });

const withoutReturn = (elements: number[]) => new Source({ elements, infinite: false, hasReturn: false });
const thrownAfterOne = toContext(toDemand(pulls([1], 'throw'), numbers));

function observed(f: (xs: Iterable<number>) => unknown, xs: unknown) {
  const o = observeDetailed(thrownAfterOne, f, [xs], { inputs: [numbers], result: numbers });
  return { result: prettyDemand(o.result), inputs: o.inputs.map((x) => prettyDemand(x)), error: o.error?.thrown };
}

describe('yield*: a consumer\'s throw() and the delegation', () => {
  test('a consumer\'s throw() into a yield* pass-through over a source without throw ends the result there: the TypeError it gets back is not the function\'s throw', { timeout: 120_000 }, async () => {
    assert.deepEqual(observed(passOn, withoutReturn([1, 2])), { result: '1 : throw()', inputs: ['1 : _'], error: undefined });
    // An array's iterator has no throw (nor return) either.
    assert.deepEqual(observed(passOn, [1, 2]), { result: '1 : throw()', inputs: ['1 : _'], error: undefined });
    const o = await observeDetailedAsync(toContext(toDemand(pulls([1], 'throw'), asyncNumbers)), passOnAsync, [new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: false, delays: [] })], { inputs: [asyncNumbers], result: asyncNumbers });
    assert.deepEqual([prettyDemand(o.result), o.inputs.map((x) => prettyDemand(x)), o.error?.thrown], ['1 : throw()', ['1 : _'], undefined]);
    // Where no throw() was asked, a throw is still the function's.
    function* throwsOnPull(xs: Iterable<number>): Generator<number> {
      yield* xs;
      throw new TypeError('its own');
    }
    const own = observeDetailed(toContext(toDemand(pulls([1, 2], 'done'), numbers)), throwsOnPull, [withoutReturn([1, 2])], { inputs: [numbers], result: numbers });
    assert.ok(own.error?.thrown instanceof TypeError);
  });

  test('flatMap with yield* over an array expansion (no throw method) meets flatMap\'s spec', { timeout: 120_000 }, () => {
    const r = checkSpec(flatMapSpec, (xs: Iterable<number>) => flatMap((x: number) => [...expand(x)], xs), TRIALS);
    assert.equal(r.passed, true, r.message);
  });

  test('a yield* pass-through meets pulledAsResult({ delegates: true }), and fails pulledAsResult() where the result is thrown into: source throw(), spec return()', { timeout: 120_000 }, () => {
    const r = checkSpec(delegating, passOn, TRIALS);
    assert.equal(r.passed, true, r.message);
    const failed = checkSpec(asResult, passOn, TRIALS);
    assert.equal(failed.passed, false);
    assert.match(failed.message, /Demand on result[\s\S]*: throw\(\)/);
    assert.match(failed.message, /Actual input demands[\s\S]*• 0 : throw\(\)[\s\S]*• 0 : return\(\)/);
  });

  test('an async yield* pass-through meets pulledAsResult({ delegates: true }), and fails pulledAsResult()', { timeout: 120_000 }, async () => {
    // Run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts).
    const r = await offThread<{ passed: boolean; message: string }>(RUNS, 'delegatingChecks', true);
    assert.equal(r.passed, true, r.message);
    const failed = await offThread<{ passed: boolean; message: string }>(RUNS, 'delegatingChecks', false);
    assert.equal(failed.passed, false);
    assert.match(failed.message, /throw\(\)[\s\S]*return\(\)/);
  });

  test('a for…of pass-through fails pulledAsResult({ delegates: true }): it closes its source with return() where the result is thrown into', { timeout: 120_000 }, async () => {
    const failed = checkSpec(delegating, passOnFor, TRIALS);
    assert.equal(failed.passed, false);
    assert.match(failed.message, /Actual input demands[\s\S]*• 0 : return\(\)[\s\S]*• 0 : throw\(\)/);
    assert.equal((await checkSpecAsync(delegatingAsync, passOnForAsync, TRIALS)).passed, false);
  });

  test('a flatten with yield* over iterable(iterable(number)) (the outer ones finite) meets its spec with the inner sources thrown into, and a for…of flatten the one closing them', { timeout: 120_000 }, () => {
    const r = checkSpec(flattenSpec(true), flatten, TRIALS);
    assert.equal(r.passed, true, r.message);
    const rFor = checkSpec(flattenSpec(false), flattenFor, TRIALS);
    assert.equal(rFor.passed, true, rFor.message);
    assert.equal(checkSpec(flattenSpec(false), flatten, TRIALS).passed, false);
    assert.equal(checkSpec(flattenSpec(true), flattenFor, TRIALS).passed, false);
  });
});
