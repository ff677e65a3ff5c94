/**
 * Finite sources: `iterable(elem, { finite: true })` (and `iterator`, `asyncIterable`,
 * `asyncIterator`) generates only sources that end, still throwing at a pull, without `return` or
 * with a `return` that throws, so that a function pulling its source to its end (a sum, a search
 * that may find nothing) can be checked without being reported as divergent.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkSpec, checkSpecAsync, checkSpecExhaustive, spec, number, iterable, iterator, asyncIterable, asyncIterator, closedAfter, pulls, prettyDemand, type Shape,
  type AnyIterDemand, type IterDemand,
} from '../src/index.ts';
import { readAsyncSource, readSource, toItsEnd } from '../examples/iterators/read-source.ts';

/** The sum of a source's elements: a `for…of` to its end. */
function sum(xs: Iterable<number>): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** The same over an async source. */
async function sumAsync(xs: AsyncIterable<number>): Promise<number> {
  let s = 0;
  for await (const x of xs) s += x;
  return s;
}

/** A spec of sum over sources of shape `sources`: pulled to the end (`[]`, or `⊥` where it throws first). */
const pulledToTheEnd = (sources: Shape<Iterable<number>>) => spec([sources], number, (predict, _d, xs) => predict(toItsEnd(readSource(xs, 1e6))));
const pulledToTheEndAsync = (sources: Shape<AsyncIterable<number>>) =>
  spec([sources], number, (predict, _d, xs) => predict(toItsEnd(readAsyncSource(xs, 1e6)) as never));

/** The first negative element of a source, or 0: the `return` inside `for…of` closes it. */
function firstNegative(xs: Iterable<number>): number {
  for (const x of xs) if (x < 0) return x;
  return 0;
}

/** The same, pulling by hand: it stops without closing its source. */
function firstNegativeLeaking(xs: Iterable<number>): number {
  const it = xs[Symbol.iterator]();
  for (let r = it.next(); !r.done; r = it.next()) if (r.value < 0) return r.value;
  return 0;
}

/** The same, looking one element past the one found before it returns. */
function firstNegativePeeking(xs: Iterable<number>): number {
  let found: number | undefined;
  for (const x of xs) {
    if (found !== undefined) return found;
    if (x < 0) found = x;
  }
  return found ?? 0;
}

/** What a search for the first negative element of `xs` pulls: up to that element, then closed; without one, to its end. */
function searched(xs: AnyIterDemand<number>): IterDemand<number> {
  for (let k = 1; ; k++) {
    const read = readSource(xs, k);
    if (read.values.length < k) return toItsEnd(read);
    if (read.values[k - 1]! < 0) return closedAfter(pulls(read.values, 'open'), xs);
  }
}

describe('finite sources', () => {
  test('sum, pulling its source to the end, passes over iterable(number, { finite: true }) and iterator(…), and probably diverges over iterable(number)', { timeout: 120_000 }, () => {
    for (const sources of [iterable(number, { finite: true }), iterator(number, { finite: true }) as unknown as Shape<Iterable<number>>]) {
      const r = checkSpec(pulledToTheEnd(sources), sum, { trials: 200, seed: 1 });
      assert.equal(r.passed, true, `${sources.name}: ${r.message}`);
    }
    // A budget of 20,000 forces, where the default's million: the first infinite source is met as soon (trial 8, 3 shrinks), each run 50 times cheaper.
    const r = checkSpec(pulledToTheEnd(iterable(number)), sum, { trials: 1_000, seed: 1, forceBudget: 20_000 });
    assert.equal(r.passed, false);
    assert.match(r.message, /the function probably diverges/);
  });

  test('the exhaustive mode enumerates a finite iterable as it does iterable(number), whose sources all end', () => {
    const finite = checkSpecExhaustive(pulledToTheEnd(iterable(number, { finite: true })), sum, { depth: 4 });
    const all = checkSpecExhaustive(pulledToTheEnd(iterable(number)), sum, { depth: 4 });
    assert.equal(finite.passed, true, finite.message);
    assert.equal(all.passed, true, all.message);
    assert.equal(finite.totalCases, all.totalCases);
  });

  test('a search that may find nothing passes over finite sources; one leaving its source open, or pulling past the element found, fails shrunk', { timeout: 120_000 }, () => {
    const s = spec([iterable(number, { finite: true })], number, (predict, _d, xs) => predict(searched(xs)));
    const ok = checkSpec(s, firstNegative, { trials: 1_000, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const leaking = checkSpec(s, firstNegativeLeaking, { trials: 1_000, seed: 1 });
    assert.equal(leaking.passed, false);
    assert.match(leaking.message, /^Failed: the spec does not match the function/);
    assert.deepEqual([leaking.counterexample!.actual[0]!, leaking.counterexample!.predicted[0]!].map((d) => prettyDemand(d)), ['-1 : _', '-1 : return()']);
    assert.match(leaking.message, /iter \[-1\]/);
    const peeking = checkSpec(s, firstNegativePeeking, { trials: 1_000, seed: 1 });
    assert.equal(peeking.passed, false);
    assert.match(peeking.message, /^Failed: the spec does not match the function/);
    assert.deepEqual([peeking.counterexample!.actual[0]!, peeking.counterexample!.predicted[0]!].map((d) => prettyDemand(d)), ['-1 : []', '-1 : return()']);
  });

  test('an async reduce passes over asyncIterable(number, { finite: true }) and asyncIterator(…), and probably diverges over asyncIterable(number)', { timeout: 120_000 }, async () => {
    for (const sources of [asyncIterable(number, { finite: true }), asyncIterator(number, { finite: true }) as unknown as Shape<AsyncIterable<number>>]) {
      const r = await checkSpecAsync(pulledToTheEndAsync(sources), sumAsync, { trials: 300, seed: 1 });
      assert.equal(r.passed, true, `${sources.name}: ${r.message}`);
    }
    // Each run on an infinite source pulls, a timer a pull, until the budget is spent: a small budget and no shrinking keep it to milliseconds.
    const r = await checkSpecAsync(pulledToTheEndAsync(asyncIterable(number)), sumAsync, { trials: 300, seed: 1, forceBudget: 200, maxShrinkAttempts: 0 });
    assert.equal(r.passed, false);
    assert.match(r.message, /the function probably diverges/);
  });

  test('an async reduce stopping at the first negative element without closing its source fails over finite async sources', { timeout: 120_000 }, async () => {
    const s = spec([asyncIterable(number, { finite: true })], number, (predict, _d, xs) => predict(searched(xs) as never));
    const sumToNegative = async (xs: AsyncIterable<number>) => {
      let total = 0;
      for await (const x of xs) if (x < 0) return total;
      else total += x;
      return total;
    };
    const leaking = async (xs: AsyncIterable<number>) => {
      const it = xs[Symbol.asyncIterator]();
      let total = 0;
      for (let r = await it.next(); !r.done; r = await it.next()) if (r.value < 0) return total;
      else total += r.value;
      return total;
    };
    const ok = await checkSpecAsync(s, sumToNegative, { trials: 300, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const r = await checkSpecAsync(s, leaking, { trials: 300, seed: 1 });
    assert.equal(r.passed, false);
    assert.deepEqual([r.counterexample!.actual[0]!, r.counterexample!.predicted[0]!].map((d) => prettyDemand(d)), ['-1 : _', '-1 : return()']);
  });

  test('a misspelt option is refused, naming the right one, and finite must be a boolean', () => {
    for (const make of [iterable, iterator, asyncIterable, asyncIterator] as ((e: Shape<number>, o: object) => unknown)[]) {
      assert.throws(() => make(number, { finit: true }), /unknown option "finit" \(did you mean finite\?\)/);
      assert.throws(() => make(number, { finite: 'yes' }), /finite.*must be true or false.*"yes"/);
    }
  });

  test('the shape is named as finite, so that messages tell it from the shape of all sources', () => {
    assert.deepEqual(
      [iterable(number, { finite: true }), iterator(number, { finite: true }), asyncIterable(number, { finite: true }), asyncIterator(number, { finite: true })].map((s) => s.name),
      ['FiniteIterable<number>', 'FiniteIterator<number>', 'FiniteAsyncIterable<number>', 'FiniteAsyncIterator<number>'],
    );
    assert.equal(iterable(number, { finite: false }).name, 'Iterable<number>');
    const s = pulledToTheEndAsync(asyncIterable(number, { finite: true }));
    assert.throws(() => checkSpec(s, sumAsync as never), /FiniteAsyncIterable<number> is async/);
  });
});
