/**
 * Taking an iterator of a re-iterable source (`[Symbol.iterator]()`, `[Symbol.asyncIterator]()`)
 * begins an iteration: one taken and left without any event is `taken`, an iteration left open
 * after 0 pulls, not `_` (never begun). It is not below `return()`, as `1 : _` is not below
 * `1 : return()`, so a function that takes its source's iterator when called and does not close
 * it when its result is closed before its first pull fails against a spec that closes it.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { lessDefined, type Demand } from '../src/demand/demand.ts';
import { glb, lub } from '../src/demand/lattice.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { asyncIterable, asyncIterator, closedAfter, endOf, iterable, iterations, iterator, pullCount, pulls, sourcePrefix, taken, untouched, type IterationEnd } from '../src/iter/index.ts';

const numbers = iterable(number);
const re = (xs: readonly number[], end: IterationEnd) => toDemand(pulls(xs, end), numbers);
const took = () => toDemand(taken, numbers);
const pd = (x: Demand | undefined) => (x === undefined ? 'none' : prettyDemand(x));

/** Takes its source's iterator when called, as TC39's helpers do; closed before its first pull, it leaves that iterator open. */
function mapLeaksUnstarted(xs: Iterable<number>): IterableIterator<number> {
  const it = xs[Symbol.iterator]();
  let started = false;
  const self: IterableIterator<number> = {
    [Symbol.iterator]: () => self,
    next: () => ((started = true), it.next()),
    return: (v?: unknown) => {
      if (started) it.return?.();
      return { done: true, value: v };
    },
  };
  return self;
}

/** The same, closing the iterator it took whenever it is closed: correct. */
function mapClosesUnstarted(xs: Iterable<number>): IterableIterator<number> {
  const it = xs[Symbol.iterator]();
  let done = false;
  const self: IterableIterator<number> = {
    [Symbol.iterator]: () => self,
    next: () => {
      if (done) return { done: true, value: undefined };
      const r = it.next();
      if (r.done) done = true;
      return r;
    },
    return: (v?: unknown) => {
      if (!done) it.return?.();
      done = true;
      return { done: true, value: v };
    },
  };
  return self;
}

function mapLeaksUnstartedAsync(xs: AsyncIterable<number>): AsyncIterableIterator<number> {
  const it = xs[Symbol.asyncIterator]();
  let started = false;
  // One pull of the source at a time, as an async generator makes them.
  let last: Promise<IteratorResult<number>> = Promise.resolve({ done: false, value: 0 });
  const self: AsyncIterableIterator<number> = {
    [Symbol.asyncIterator]: () => self,
    next: () => ((started = true), (last = last.then(() => it.next()))),
    return: async (v?: unknown) => {
      if (started) await it.return?.();
      return { done: true, value: v };
    },
  };
  return self;
}

/** A generator: closed before its first pull, it never took its source's iterator. */
function* mapGenerator(xs: Iterable<number>): Generator<number> {
  for (const x of xs) yield x;
}

const closingSpec = specOf([numbers], iterator(number), ({ pulledAsResult }) => [pulledAsResult({ closesUnstarted: true })]);
const closingSpecAsync = specOf([asyncIterable(number)], asyncIterator(number), ({ pulledAsResult }) => [pulledAsResult({ closesUnstarted: true })]);

describe('an iterator taken and left without any event is a begun iteration left open, not one never begun', () => {
  test('taken prints as taken, distinct from _, and reads as 0 pulls left open', () => {
    assert.equal(prettyDemand(took()), 'taken');
    assert.equal(prettyDemand(toDemand(iterations(taken, pulls([1], 'return')), numbers)), 'Iterations taken (1 : return())');
    assert.equal(pullCount(taken), 0);
    assert.equal(endOf(taken), 'open');
  });

  test('taken is not below return() nor 1 : return(); _ and return() are below it, and it is below 1 : _ and []', () => {
    assert.equal(lessDefined(took(), re([], 'return')), false);
    assert.equal(lessDefined(took(), re([1], 'return')), false);
    assert.equal(lessDefined(took(), toDemand(untouched, numbers)), false);
    assert.equal(lessDefined(toDemand(untouched, numbers), took()), true);
    assert.equal(lessDefined(re([], 'return'), took()), true);
    assert.equal(lessDefined(took(), re([1], 'open')), true);
    assert.equal(lessDefined(took(), re([], 'done')), true);
    assert.equal(lessDefined(re([1], 'open'), took()), false);
  });

  test('lub and glb with taken are its bounds', () => {
    assert.equal(pd(lub(took(), re([], 'return'))), 'taken');
    assert.equal(pd(lub(took(), re([1], 'return'))), '1 : _');
    assert.equal(pd(lub(took(), toDemand(untouched, numbers))), 'taken');
    assert.equal(pd(glb(took(), re([], 'return'))), 'return()');
    assert.equal(pd(glb(took(), re([1], 'open'))), 'taken');
    assert.equal(pd(glb(took(), re([1], 'return'))), 'none');
    assert.equal(pd(glb(took(), toDemand(untouched, numbers))), '_');
  });

  test('closedAfter a source without return, after no pull, is taken: the iteration begun and left open', () => {
    const noReturn = { [Symbol.iterator]: () => ({ next: () => ({ done: true as const, value: undefined }) }) };
    // Its iterators' methods are known from one taken where the protocol takes one (here the spec's reading), never by closedAfter's own.
    sourcePrefix(noReturn as never, 0);
    assert.equal(prettyDemand(toDemand(closedAfter(pulls([], 'return'), noReturn as never), numbers)), 'taken');
  });
});

describe('a function that takes its source iterator when called must close it when its result is closed before its first pull', () => {
  test('over iterable(number), the one leaving it open fails noStricter, with its source taken where the spec says return()', () => {
    const r = checkSpec(closingSpec, mapLeaksUnstarted, { trials: 300, seed: 1, compare: 'noStricter' });
    assert.equal(r.passed, false);
    assert.match(r.message, /taken/);
  });

  test('over asyncIterable(number), the one leaving it open fails noStricter', async () => {
    const r = await checkSpecAsync(closingSpecAsync, mapLeaksUnstartedAsync, { trials: 300, seed: 1, compare: 'noStricter' });
    assert.equal(r.passed, false);
    assert.match(r.message, /taken/);
  });

  test('the one that closes the iterator it took passes, exact and noStricter', () => {
    for (const compare of ['exact', 'noStricter'] as const) assert.equal(checkSpec(closingSpec, mapClosesUnstarted, { trials: 300, seed: 1, compare }).passed, true, compare);
  });

  test('a generator, which never takes an iterator before its first pull, still passes noStricter', () => {
    assert.equal(checkSpec(closingSpec, mapGenerator, { trials: 300, seed: 1, compare: 'noStricter' }).passed, true);
  });
});

describe('shrinking a demand on a re-iterable result keeps each iteration begun', () => {
  test('no candidate cuts an iteration of Iterations to _: it would be a demand the shape cannot hold', () => {
    const one = [...shrinkDemand(re([1, 2], 'return'))].map(pd);
    assert.deepEqual(one, ['return()', '1 : return()', '_ : 2 : return()', '1 : _', '1 : _ : return()', '1 : 2 : _', '2 : return()']);
    const two = [...shrinkDemand(toDemand(iterations(pulls([1], 'return'), pulls([1], 'open')), numbers))].map(pd);
    assert.deepEqual(two, ['Iterations return() (1 : _)', 'Iterations (_ : return()) (1 : _)', 'Iterations (1 : _) (1 : _)', 'Iterations (1 : return()) (_ : _)']);
  });
});
