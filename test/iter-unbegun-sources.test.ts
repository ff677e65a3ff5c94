/**
 * An iteration never begun has nothing to close. A re-iterable source (`iterable`,
 * `asyncIterable`) that a function never iterated (`_`), or an iteration it lacks in
 * `Iterations (…)`, is below every demand on it: the function that never opened an iteration is no
 * stricter than one that opened and closed it. A one-shot iterator is given to the function open:
 * `_` there is left open, not below `return()`.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { lessDefined, type Demand } from '../src/demand/demand.ts';
import { glb, lub } from '../src/demand/lattice.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { closedAfter, endOf, iterable, iterations, iterator, pullCount, pulls, untouched, type IterationEnd } from '../src/iter/index.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { readSource } from '../examples/iterators/read-source.ts';
import { offThread } from './fixtures/off-thread.ts';
import { MERGE_RUNS, type mergeAgainstBound } from './fixtures/merge-bound-runs.ts';

type MergeRun = Awaited<ReturnType<typeof mergeAgainstBound>>;

const numbers = iterable(number);
const oneShot = iterator(number);
const at = (shape: Shape<any>) => (xs: readonly number[], end: IterationEnd) => toDemand(pulls(xs, end), shape);
const [re, once] = [at(numbers), at(oneShot)];
const pd = (x: Demand | undefined) => (x === undefined ? 'none' : prettyDemand(x));

describe('a re-iterable source never iterated is below every demand on it; a one-shot iterator left open is not', () => {
  test('_ on an iterable is below return(), 1 : return() and throw(); on an iterator it is not', () => {
    for (const other of [re([], 'return'), re([1], 'return'), re([], 'throw'), re([1, 2], 'done')]) {
      assert.equal(lessDefined(toDemand(untouched, numbers), other), true, pd(other));
    }
    for (const other of [once([], 'return'), once([1], 'return'), once([], 'throw')]) {
      assert.equal(lessDefined(toDemand(untouched, oneShot), other), false, pd(other));
    }
  });

  test('nothing begun on an iterable is below _ but _ itself: return() there is no longer below it', () => {
    assert.equal(lessDefined(re([], 'return'), toDemand(untouched, numbers)), false);
    assert.equal(lessDefined(once([], 'return'), toDemand(untouched, oneShot)), true, 'an iterator closed is below one left open, as before');
  });

  test('within an iteration, pulled then left open stays not below a close', () => {
    assert.equal(lessDefined(re([1], 'open'), re([1, 2], 'return')), false);
    assert.equal(lessDefined(re([1], 'open'), re([1], 'return')), false);
  });

  test('an iteration missing from Iterations (…) is below any: one iteration is below two whose first is above it', () => {
    const two = toDemand(iterations(pulls([1], 'return'), pulls([], 'return')), numbers);
    assert.equal(lessDefined(re([1], 'return'), two), true, pd(two));
    assert.equal(lessDefined(toDemand(iterations(pulls([1], 'return'), untouched), numbers), two), true);
    assert.equal(lessDefined(two, re([1], 'return')), false);
    assert.equal(lessDefined(toDemand(untouched, numbers), two), true);
    // one iteration prints as it did, without Iterations
    assert.equal(pd(re([1, 2], 'return')), '1 : 2 : return()');
    assert.equal(pd(toDemand(iterations(pulls([1], 'open'), pulls([], 'done')), numbers)), 'Iterations (1 : _) []');
  });

  test('lub and glb with an iterable never iterated: the other, and _', () => {
    assert.equal(pd(lub(toDemand(untouched, numbers), re([1], 'return'))), '1 : return()');
    assert.equal(pd(glb(toDemand(untouched, numbers), re([1], 'return'))), '_');
    assert.equal(pd(lub(toDemand(untouched, oneShot), once([1], 'return'))), '1 : _', 'an iterator: as before');
    assert.equal(pd(lub(re([1], 'return'), toDemand(iterations(pulls([1, 2], 'open'), pulls([], 'return')), numbers))), 'Iterations (1 : 2 : _) return()');
    assert.equal(pd(glb(re([], 'return'), re([], 'throw'))), '_', 'an iterable: only _ is below both');
  });

});

/** The same upper bound for a sync pass-through: at most one pull more than the result, closed where it is. */
const passBoundOver = <S extends Shape<any>>(source: S) =>
  spec([source], source, (predict, d, xs) => {
    const k = pullCount(d);
    const end = endOf(d);
    const read = readSource(xs as Iterable<number>, end === 'done' || end === 'threw' ? Infinity : k + 1);
    if (read.then !== 'more') return predict(pulls(read.values, read.then === 'threw' ? 'threw' : 'done'));
    predict(end === 'open' ? pulls(read.values, 'open') : closedAfter(pulls(read.values, 'open'), xs));
  });

/** A pass-through with `for…of`: closed before its first pull, a generator never starts. */
function* passClosing(it: Iterable<number>): Generator<number> {
  for (const x of it) yield x;
}

describe('noStricter against a bound that closes the sources where the result is closed', () => {
  // merge's checks run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts); its bound is in test/fixtures/merge-bound-runs.ts.
  test('a correct merge of async iterables passes, though closed before its first pull it never begins its sources', { timeout: 60_000 }, async () => {
    const r = await offThread<MergeRun>(MERGE_RUNS, 'mergeAgainstBound', 'asyncIterable');
    assert.equal(r.passed, true, r.message);
  });

  test('the same merge of one-shot async iterators fails: closed before its first pull, it leaves them open', { timeout: 60_000 }, async () => {
    const r = await offThread<MergeRun>(MERGE_RUNS, 'mergeAgainstBound', 'asyncIterator');
    assert.equal(r.passed, false, r.message);
    assert.deepEqual(r.actual, ['_', '_'], r.message);
    assert.equal(r.resultDemand, 'return()', r.message);
    assert.ok(r.predicted!.some((p) => p.endsWith('return()')), r.message);
  });

  test('a sync pass-through with for…of passes over an iterable and fails over an iterator', () => {
    const r = checkSpec(passBoundOver(numbers), passClosing, { compare: 'noStricter', trials: 500, seed: 1 });
    assert.equal(r.passed, true, r.message);
    const f = checkSpec(passBoundOver(oneShot), passClosing, { compare: 'noStricter', trials: 500, seed: 1 });
    assert.equal(f.passed, false, f.message);
    assert.equal(pd(f.counterexample!.actual[0]), '_', f.message);
    assert.match(pd(f.counterexample!.predicted[0]), /return\(\)$/, f.message);
    assert.match(pd(f.counterexample!.resultDemand), /^(return|throw)\(\)$/, f.message);
  });
});
