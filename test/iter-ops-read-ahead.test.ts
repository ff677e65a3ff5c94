/**
 * iter-ops reads ahead, as run: its `waitRace(n)` pulls elements of its source beyond
 * those its result gave, where an operator passing elements on one by one (a map) pulls as many
 * as its result gave. Checked against that spec ("pulls no more"): the shrunk counterexample is
 * the one docs/iterators.md reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ops from 'iter-ops';
import { checkSpecAsync, number, prettyDemand, prettyValue, spec, asyncIterable, pullsOf, readAhead, aheadOf, type IterDemand } from '../src/index.ts';

const asyncNumbers = asyncIterable(number);
/** One by one: the source pulled as far as the result was, as many pulls pending at once, left open where it is (a pipeAsync result has no return()). */
const oneByOne = spec([asyncNumbers], asyncNumbers, (predict, d) => predict(readAhead(aheadOf(d), pullsOf(d) as unknown as IterDemand<number>)));

test('iter-ops waitRace(3) pulls elements of its source its result has not given', { timeout: 120_000 }, async () => {
  assert.equal((await checkSpecAsync(oneByOne, (xs: AsyncIterable<number>) => ops.pipeAsync(xs, ops.map((x: number) => x)), { trials: 300, seed: 1, compare: 'noStricter' })).passed, true);
  const r = await checkSpecAsync(oneByOne, (xs: AsyncIterable<number>) => ops.pipeAsync(xs, ops.waitRace(3)), { trials: 300, seed: 1, compare: 'noStricter' });
  assert.equal(r.passed, false);
  const c = r.counterexample!;
  assert.deepEqual([prettyValue(c.inputs[0], asyncNumbers), prettyDemand(c.resultDemand), prettyDemand(c.actual[0]!), prettyDemand(c.predicted[0]!)], ['async iter [0]', '0 : _', '0 : []', '0 : _']);
});
