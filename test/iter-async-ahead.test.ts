/**
 * A spec written for sync iterables works for async ones: where the consumer of an async result
 * read ahead (`Ahead n`), the result's demand in value form is its iteration, the `n` read by
 * `aheadOf`, so that a spec passing it on to a source predicts the pulls one at a time, as an
 * async generator makes them; one that passes the reading ahead on says so (`readAhead`).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { predictDemands, spec } from '../src/spec/spec.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { aheadOf, asyncIterable, closedAfter, endOf, pullCount, pulls, pullsOf, readAhead, untouched, type IterDemand } from '../src/iter/index.ts';
import { takeAsync } from '../examples/iterators/take-async.ts';
import { observeDetailedAsync, toContext } from '../src/demand/observe.ts';
import { AsyncSource } from '../src/iter/source.ts';

const asyncNumbers = asyncIterable(number);

/** take's spec as docs/iterators.md writes it for sync iterables: the source as far as the result, `d` itself where it is not closed (a result ending in ⊥ after n pulls: the source's return threw as take closed it). */
const takeSpecWrittenForSync = spec([number, asyncNumbers], asyncNumbers, (predict, d, n, xs) => {
  const k = pullCount(d);
  const end = endOf(d);
  const closedByConsumer = end === 'return' || end === 'throw';
  predict(n, n <= 0 || (k === 0 && closedByConsumer) ? untouched : closedByConsumer || ((end === 'done' || end === 'threw') && k === n) ? closedAfter(d, xs) : (d as IterDemand<number>));
});

describe('an async result read ahead, in value form', () => {
  test('is, as a spec receives it, its iteration, its reading ahead read by aheadOf, and passed on without it', () => {
    const seen: number[] = [];
    const passOn = spec([asyncNumbers], asyncNumbers, (predict, d) => {
      seen.push(aheadOf(d), pullCount(d));
      predict(pullCount(d) === 2 ? d : readAhead(aheadOf(d), pullsOf(d) as never));
    });
    const [passed] = predictDemands(passOn, toDemand(readAhead(2, pulls([1, 2], 'done')), asyncNumbers), [untouched]);
    assert.deepEqual(seen, [2, 2]);
    assert.equal(prettyDemand(passed!), '1 : 2 : []');
    const [said] = predictDemands(passOn, toDemand(readAhead(2, pulls([1], 'done')), asyncNumbers), [untouched]);
    assert.equal(prettyDemand(said!), 'Ahead 2 (1 : [])');
  });

  test('a take spec written for sync iterables, passing the result demand on, checks take over async iterables under consumers reading ahead', { timeout: 60_000 }, async () => {
    const r = await checkSpecAsync(takeSpecWrittenForSync, takeAsync, { trials: 400, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });
});

test('a context made from a demand read ahead to its end keeps that many pulls pending to the end, those past it answered done, as the random consumer it was recorded from did', async () => {
  const shape = asyncIterable(number);
  const passedOn = (xs: AsyncIterable<number>) => xs;
  for (const elements of [[], [1]]) {
    const d = toDemand(readAhead(2, pulls(elements, 'done')), shape);
    const o = await observeDetailedAsync(toContext(d), passedOn, [new AsyncSource({ elements, infinite: false, hasReturn: true, delays: [] })], { inputs: [shape], result: shape });
    assert.deepEqual([prettyDemand(o.result), prettyDemand(o.inputs[0]!)], [prettyDemand(d), prettyDemand(d)]);
  }
});
