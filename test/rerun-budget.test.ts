/**
 * A case run again (to shrink it, or for the report) runs under the force budget its trial had:
 * the default budget grows with what a trial's inputs hold evaluated, and a first run that
 * evaluates them must not give the runs after it a larger budget. So a divergence found is a
 * divergence reproduced, in this thread and with workers, at random and exhaustively; and a case
 * that diverges only once is said to behave differently, as any other failure.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { withSeries } from '../src/engine/series.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { thunk } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { Cons } from '../src/lazy/cell.ts';
import { spec } from '../src/spec/spec.ts';
import { prettyValue } from '../src/demand/print.ts';
import { stopped, sumPlusSpec, sumSixTimes, sumSixTimesCheck, sumSixTimesPlus, sumSixTimesPlusCheck, unevaluatedList } from './fixtures/rerun-budget-checks.ts';

const DIFFERED = /\nThe function behaved differently when its case was run again: /;

test('a case that evaluates its input and diverges under the default budget (what it evaluated does not scale the budget) diverges again when run for the report', { timeout: 120_000 }, () => {
  stopped.length = 0;
  const r = checkSpec(sumSixTimesCheck.spec, sumSixTimes, { seed: 1, trials: 1, maxShrinkAttempts: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function probably diverges/);
  assert.match(r.message, /it made more than 1000000 forces of thunks and pulls of iterators/);
  assert.deepEqual(stopped, [true, true], 'the trial and its run for the report were both stopped by the budget');
  assert.doesNotMatch(r.message, DIFFERED);
});

test('a shrink of a divergent case that keeps the input its trial evaluated runs under the budget its trial had, and shrinks', { timeout: 120_000 }, () => {
  stopped.length = 0;
  const r = checkSpec(sumPlusSpec, sumSixTimesPlus, { seed: 1, trials: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function probably diverges/);
  // The count shrinks to 0: each smaller one, with the list evaluated by the trial, diverges as the trial did.
  assert.ok(r.shrinks > 0, r.message);
  assert.equal(prettyValue(r.counterexample!.inputs[1]), '0');
  assert.ok(stopped.every((s) => s), `every run was stopped by the budget: ${stopped}`);
  assert.doesNotMatch(r.message, DIFFERED);
});

test('with workers, a divergent case shrinks in the worker under its trial\'s budget, and diverges again here, where it is replayed and reported', { timeout: 120_000 }, async () => {
  stopped.length = 0;
  const r = await checkSpec(sumSixTimesPlusCheck, { seed: 1, trials: 1, workers: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function probably diverges/);
  assert.ok(r.shrinks > 0, r.message);
  assert.equal(prettyValue(r.counterexample!.inputs[1]), '0');
  assert.ok(stopped.length > 1 && stopped.every((s) => s), `the case made again here, its shrinks and its run for the report were all stopped: ${stopped}`);
  assert.doesNotMatch(r.message, DIFFERED);
});

test('exhaustively, the case found divergent diverges again when run on its total inputs for the report', { timeout: 120_000 }, () => {
  stopped.length = 0;
  const fresh = withSeries(list(number), () => [unevaluatedList()]);
  const r = checkSpecExhaustive(spec([fresh], number, (predict, _d, xs) => predict(xs)), sumSixTimes, { depth: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function probably diverges/);
  assert.deepEqual(stopped, [true, true]);
  assert.doesNotMatch(r.message, DIFFERED);
});

/** A constant 0 that, the first time it forces the first cell of its list (a run of an exhaustive check that forces an unfilled part stops there), forces it for ever. */
function divergesOnFirstCall(): (xs: L.List<number>) => number {
  let forced = 0;
  return (xs) => {
    xs.force();
    if (forced++ === 0) for (;;) xs.force();
    return 0;
  };
}
const firstCell = spec([list(number)], number, (predict, _d, xs) => predict(xs.force() instanceof Cons ? L.cons(thunk, thunk) : L.nil));

test('a case that diverges on its first run only is said to behave differently when run again, at random and exhaustively', { timeout: 60_000 }, () => {
  for (const r of [checkSpec(firstCell, divergesOnFirstCall(), { seed: 1 }), checkSpecExhaustive(firstCell, divergesOnFirstCall(), { depth: 2 })]) {
    assert.equal(r.passed, false);
    assert.match(r.message, /^Failed: the function probably diverges/);
    assert.match(r.message, new RegExp(`${DIFFERED.source}it passed\\.`));
  }
});
