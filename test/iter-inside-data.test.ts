/**
 * Iterables inside ordinary data (a tuple, a record, a declared data type). A random context that
 * reaches one at any position of a result consumes it as a random consumer of iterables does, so
 * the result's demand shows what was pulled; and an element passed on as it is, whose iterables
 * inside its data were read ahead, is predicted read ahead by `pulledAsResult` as the element's
 * iterable itself would be.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { tuple } from '../src/demand/tuples.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { aheadOf, asyncIterable, iterable, pullsOf, readAhead, type IterDemand } from '../src/iter/index.ts';
import { RUNS } from './fixtures/async-pass-through-runs.ts';
import { offThread } from './fixtures/off-thread.ts';

type Pair<X> = [X, number];

const pair = tuple(iterable(number), number) as Shape<Pair<Iterable<number>>>;
const asyncPair = tuple(asyncIterable(number), number) as Shape<Pair<AsyncIterable<number>>>;

/** Its source, every pull of it pulling the source twice (one element more than it answers); closing passed on where the source's iterator can be closed. */
function pullingTwice(xs: Iterable<number>): Iterable<number> {
  return {
    [Symbol.iterator]() {
      const it = xs[Symbol.iterator]();
      const next = () => {
        const r = it.next();
        if (!r.done) it.next();
        return r;
      };
      return { next, ...(it.return && { return: (v?: unknown) => it.return!(v) }), ...(it.throw && { throw: (e?: unknown) => it.throw!(e) }) };
    },
  };
}

function pullingTwiceAsync(xs: AsyncIterable<number>): AsyncIterable<number> {
  return {
    [Symbol.asyncIterator]() {
      const it = xs[Symbol.asyncIterator]();
      const next = async () => {
        const r = await it.next();
        if (!r.done) await it.next();
        return r;
      };
      return { next, ...(it.return && { return: (v?: unknown) => it.return!(v) }), ...(it.throw && { throw: (e?: unknown) => it.throw!(e) }) };
    },
  };
}

const OPTIONS = { trials: 200, seed: 1 } as const;

describe('a random context reaching an iterable inside a result that is not one', () => {
  const identity = spec([pair], pair, (predict, d) => predict(d));
  // Passing its iterable on as it is, the identity passes the consumer's reading ahead on to its source.
  const asyncIdentity = spec([asyncPair], asyncPair, (predict, [xs, n]) => predict([readAhead(aheadOf(xs), pullsOf(xs) as unknown as IterDemand<number>), n]));

  test('consumes it, so the identity over a tuple holding an iterable passes its spec', { timeout: 120_000 }, () => {
    const r = checkSpec(identity, (p) => p, OPTIONS);
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
  });

  test('consumes it, so a function that pulls the inner iterable further than its result fails, showing the pulls', { timeout: 120_000 }, () => {
    const r = checkSpec(identity, ([xs, n]) => [pullingTwice(xs), n] as Pair<Iterable<number>>, OPTIONS);
    assert.equal(r.passed, false);
    assert.doesNotMatch(r.message, /<iterable>|behaved differently/);
    // the result pulled once, the source pulled twice (to its end), where the spec passes the one pull on
    assert.match(r.message, /• \(0 : \[\], 0\)[^\n]*• \(0 : _, 0\)/);
  });

  test('consumes an async one, so the identity over a tuple holding an async iterable passes its spec', { timeout: 120_000 }, async () => {
    const r = await checkSpecAsync(asyncIdentity, (p) => p, OPTIONS);
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
  });

  test('consumes an async one, so a function that pulls the inner async iterable further than its result fails, showing the pulls', { timeout: 120_000 }, async () => {
    const r = await checkSpecAsync(asyncIdentity, ([xs, n]) => [pullingTwiceAsync(xs), n] as Pair<AsyncIterable<number>>, OPTIONS);
    assert.equal(r.passed, false);
    assert.doesNotMatch(r.message, /<async ?iterable>|behaved differently/);
    assert.match(r.message, /• \(0 : \[\], 0\)[^\n]*• \(0 : _, 0\)/);
  });
});

describe('an async pass-through over elements holding async iterables in their data, specified by pulledAsResult', () => {
  for (const [name, elem] of [
    ['a tuple', 'tuple(asyncIterable(number), number)'],
    ['a record', 'record({ xs: asyncIterable(number), n: number })'],
    ['a declared data type', 'Box'],
    ['a tuple in a tuple', 'tuple(tuple(asyncIterable(number)), number)'],
    ['a map', 'mapOf(number, asyncIterable(number))'],
  ] as const) {
    for (const compare of ['exact', 'noStricter'] as const) {
      test(`passes with elements of ${name}, comparing ${compare}: the read-ahead on the inner iterable is predicted`, { timeout: 120_000 }, async () => {
        // 50 trials: the read-ahead inside data, unpredicted, failed each of these by trial 11.
        // Run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts).
        assert.equal(await offThread(RUNS, 'passOnAsyncChecks', `asyncIterable(${elem})`, compare, 50), 'passed');
      });
    }
  }
});
