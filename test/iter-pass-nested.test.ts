/**
 * A pass-through over a source whose elements are iterables, specified by `pulledAsResult`: the
 * random consumer of the result is bounded at every level (an inner iterable, or one inside an
 * element pulled to its end, is consumed by a random consumer too, all within one allowance of
 * pulls), so a correct function is not reported as diverging; and an element is demanded as the
 * result's element at its place (what the consumer pulled of it, read ahead as it read it), not
 * whole, as one with lazy parts is.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { tuple } from '../src/demand/tuples.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { checkSpec } from '../src/index.ts';
import { iterable, iterator } from '../src/iter/index.ts';
import { offThread } from './fixtures/off-thread.ts';
import { passOnSpec, RUNS } from './fixtures/async-pass-through-runs.ts';

function* passOn<T>(xs: Iterable<T>): Generator<T> {
  for (const x of xs) yield x;
}

type Compare = 'exact' | 'noStricter';

function passOnChecks(sh: Shape<unknown>, compare: Compare): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r = checkSpec(passOnSpec(sh), passOn as any, { trials: 300, seed: 1, compare });
  return r.passed ? 'passed' : r.message;
}

describe('a pass-through over a source of iterables, specified by pulledAsResult', () => {
  for (const [name, sh] of [
    ['iterable(iterable(number))', iterable(iterable(number))],
    ['iterable(iterator(number))', iterable(iterator(number))],
    ['iterator(iterable(number))', iterator(iterable(number))],
    ['iterable(list(number))', iterable(list(number))],
    ['iterable(tuple(number, number))', iterable(tuple(number, number))],
    ['iterable(iterable(iterable(number)))', iterable(iterable(iterable(number)))],
    ['iterable(tuple(iterable(number), number))', iterable(tuple(iterable(number), number))],
  ] as const) {
    for (const compare of ['exact', 'noStricter'] as const) {
      test(`checks over ${name}, comparing ${compare}`, { timeout: 180_000 }, () => {
        assert.equal(passOnChecks(sh as Shape<unknown>, compare), 'passed');
      });
    }
  }
  // Async iterables of async iterables cost most a trial: 100 trials, where their spec's misreading of an element read ahead failed by trial 7.
  // Run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts).
  for (const [name, trials] of [
    ['asyncIterable(asyncIterable(number))', 100],
    ['asyncIterable(iterable(number))', 300],
    ['asyncIterable(asyncIterable(asyncIterable(number)))', 100],
  ] as const) {
    for (const compare of ['exact', 'noStricter'] as const) {
      test(`checks as an async generator over ${name}, comparing ${compare}`, { timeout: 180_000 }, async () => {
        assert.equal(await offThread(RUNS, 'passOnAsyncChecks', name, compare, trials), 'passed');
      });
    }
  }
});
