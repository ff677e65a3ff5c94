/**
 * A generated source that throws (a pull, or its `return`) is an input holding ⊥ there; a function
 * that forces it and passes its failure on is ⊥ there too: its result's demand is ⊥ (or ⊥ at the
 * part of a lazy result whose forcing threw), the spec is asked as usual, and a correct function
 * passes. What is the function's own throw (an error it made, even a SourceError) stays one.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkSpec, checkSpecAsync, checkSpecExhaustive, strictProperty, spec, list, number, observeDetailed, observeDetailedAsync, normalize, whnf,
  prettyDemand, pulls, endOf, pullCount, Source, AsyncSource, SourceError, lazy, now, NIL, Cons, isThunk, isBottom, type LazyList, type Lazy,
} from '../src/index.ts';
import { readSource, toItsEnd } from '../examples/iterators/read-source.ts';
import {
  numbers, finiteNumbers, sum, sumSpec, sumSpecOverAll, sumFirst, sumFirstPullingOneMore, sumFirstSpec, first, firstLeaking, firstSpec, sumAsync, sumAsyncSpec, asyncNumbers, sumCheck, firstLeakingCheck,
} from './fixtures/source-error-checks.ts';

const source = (elements: number[], more: Partial<ConstructorParameters<typeof Source<number>>[0]> = {}) => new Source<number>({ elements, infinite: false, hasReturn: true, ...more });

function observed(f: (...a: any[]) => unknown, inputs: unknown[], context = normalize, result: any = number) {
  const o = observeDetailed(context, f, inputs, { inputs: inputs.map((x) => (typeof x === 'number' ? number : numbers)), result });
  return { result: prettyDemand(o.result), inputs: o.inputs.map((d) => prettyDemand(d)), error: o.error?.thrown };
}

/** A lazy list of a source's elements, each cell pulling one: its tail passes on a pull's failure when it is forced. */
function listOf(xs: Iterable<number>): LazyList<number> {
  const it = xs[Symbol.iterator]();
  const rest = (): LazyList<number> =>
    lazy(() => {
      const r = it.next();
      return r.done ? NIL : new Cons(now(r.value), rest());
    });
  return rest();
}

/** listOf pulls its source once per cell of the result forced: to its end where the result's ends, `⊥` where it is ⊥. */
const listOfSpec = spec([numbers], list(number), (predict, d, xs) => {
  // The cells forced counted first, then the source read once (a read a cell made the spec quadratic).
  let k = 0;
  let c: Lazy<unknown> = d;
  for (; !isThunk(c) && !isBottom(c); k++) {
    const cell = c.force();
    if (!(cell instanceof Cons)) break;
    c = cell.tail;
  }
  predict(pulls(readSource(xs, k).values, isThunk(c) ? 'open' : isBottom(c) ? 'threw' : 'done'));
});

describe('a source failure passed on by a function whose result is not an iterable', () => {
  test('is ⊥ of the result, with the source\'s pulls up to it, and no error', () => {
    assert.deepEqual(observed(sum, [source([1], { throwAt: 1 })]), { result: '⊥', inputs: ['1 : ⊥'], error: undefined });
    assert.deepEqual(observed(sum, [source([], { throwAt: 0 })], whnf), { result: '⊥', inputs: ['⊥'], error: undefined });
    // A return that throws: first's for…of closes its source, which passes the closing's failure on.
    assert.deepEqual(observed(first, [source([7, 8], { returnThrows: true })]), { result: '⊥', inputs: ['7 : return()'], error: undefined });
  });

  test('sum passes its spec (its source pulled to the end), over sources that throw', () => {
    const r = checkSpec(sumSpec, sum, { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });

  test('first, closing sources whose return throws, passes its spec; the one that does not close fails, shrunk', () => {
    const ok = checkSpec(firstSpec, first, { trials: 300, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const r = checkSpec(firstSpec, firstLeaking, { trials: 300, seed: 1 });
    assert.equal(r.passed, false);
    assert.match(r.message, /^Failed: the spec does not match the function/);
    assert.equal(prettyDemand(r.counterexample!.actual[0]!), '0 : _');
    assert.equal(prettyDemand(r.counterexample!.predicted[0]!), '0 : return()');
    assert.match(r.message, /iter \[0\]/);
  });

  test('sumFirst passes; the one pulling one more fails with a shrunk counterexample, not as throwing', () => {
    const ok = checkSpec(sumFirstSpec, sumFirst, { trials: 300, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const r = checkSpec(sumFirstSpec, sumFirstPullingOneMore, { trials: 300, seed: 1 });
    assert.equal(r.passed, false);
    assert.equal(r.counterexample!.error, undefined, r.message);
    assert.deepEqual([r.counterexample!.actual, r.counterexample!.predicted].map((ds) => prettyDemand(ds[1]!)), ['[]', '_']);
    assert.match(r.message, /│ • 0 +│/);
    assert.match(r.message, /│ • iter \[\] +│/);
  });

  test('a function throwing its own error is still the function that threw, even a SourceError it made or got elsewhere, where passing its source\'s on passes', () => {
    assert.equal(checkSpec(sumSpec, sum, { trials: 100, seed: 2 }).passed, true);
    const ownError = (xs: Iterable<number>) => {
      sum(xs);
      throw new SourceError(0);
    };
    const elsewhere = (xs: Iterable<number>) => sum(xs) + sum(source([], { throwAt: 0 }));
    const wrapped = (xs: Iterable<number>) => {
      try {
        return sum(xs);
      } catch (err) {
        throw err instanceof SourceError ? new SourceError(err.pull, err.inReturn) : err;
      }
    };
    for (const f of [ownError, elsewhere, wrapped]) {
      const r = checkSpec(sumSpec, f, { trials: 300, seed: 1 });
      assert.equal(r.passed, false, f.name);
      assert.match(r.message, /^Failed: the function threw/);
      assert.ok(r.counterexample!.error?.thrown instanceof SourceError);
    }
  });

  test('an iterable result that throws a SourceError the function made is its own throw, where one passing its source\'s on ends with ⊥', () => {
    function* passOn(xs: Iterable<number>) {
      yield* xs;
    }
    function* ownThrow(xs: Iterable<number>) {
      yield* xs;
      throw new SourceError(1);
    }
    assert.deepEqual(observed(passOn, [source([1], { throwAt: 1 })], normalize, numbers), { result: '1 : ⊥', inputs: ['1 : ⊥'], error: undefined });
    const own = observed(ownThrow, [source([1])], normalize, numbers);
    assert.deepEqual([own.result, own.inputs], ['1 : ⊥', ['1 : []']]);
    assert.ok(own.error instanceof SourceError);
  });

  test('an iterable result that is ⊥ (the function threw before returning it) reads as an iteration whose first pull threw', () => {
    // Eager: it copies its source before returning, passing a pull's failure on from the call.
    const copied = (xs: Iterable<number>): Iterable<number> => [...xs];
    let bottoms = 0;
    const copiedSpec = spec([finiteNumbers], numbers, (predict, d, xs) => {
      if (isBottom(d)) {
        bottoms++;
        assert.deepEqual([isThunk(d), endOf(d), pullCount(d)], [false, 'threw', 0]);
      }
      predict(toItsEnd(readSource(xs, 1e6)));
    });
    assert.deepEqual(observed(copied, [source([1], { throwAt: 1 })], normalize, numbers), { result: '⊥', inputs: ['1 : ⊥'], error: undefined });
    const r = checkSpec(copiedSpec, copied, { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
    assert.ok(bottoms > 0);
  });

  test('a lazy list result whose tail pulls the source is ⊥ there, under built-in and other contexts, and passes its spec', () => {
    assert.deepEqual(observed(listOf, [source([1], { throwAt: 1 })], normalize, list(number)), { result: '1 : ⊥', inputs: ['1 : ⊥'], error: undefined });
    // A context of its own forces an instrumented copy, which records ⊥ where forcing threw, and stops there.
    const toEnd = (v: unknown) => {
      for (let c = (v as LazyList<number>).force(); c instanceof Cons; c = c.tail.force());
    };
    assert.deepEqual(observed(listOf, [source([1], { throwAt: 1 })], toEnd, list(number)), { result: '_ : ⊥', inputs: ['1 : ⊥'], error: undefined });
    const r = checkSpec(listOfSpec, listOf, { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });

  test('in the exhaustive mode, sum passes and first without closing fails', () => {
    const r = checkSpecExhaustive(sumSpecOverAll, sum, { depth: 3 });
    assert.equal(r.passed, true, r.message);
    const leaking = checkSpecExhaustive(firstSpec, firstLeaking, { depth: 3 });
    assert.equal(leaking.passed, false);
    assert.match(leaking.message, /return\(\)/);
    assert.doesNotMatch(leaking.message, /the function threw/);
  });

  test('as a fast-check property, sum passes', () => {
    fc.assert(strictProperty(sumSpec, sum), { numRuns: 300, seed: 1 });
  });

  test('with workers, sum passes and first without closing fails, shrunk', { timeout: 120_000 }, async () => {
    const ok = await checkSpec(sumCheck, { workers: 2, trials: 200, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const r = await checkSpec(firstLeakingCheck, { workers: 2, trials: 200, seed: 1 });
    assert.equal(r.passed, false);
    assert.match(r.message, /the spec does not match/);
    assert.match(r.message, /0 : return\(\)/);
  });

  test('an async reduce passes on its source\'s rejection as ⊥, and passes its spec', async () => {
    const o = await observeDetailedAsync(normalize, sumAsync, [new AsyncSource({ elements: [1], infinite: false, hasReturn: true, throwAt: 1, delays: [1] })], { inputs: [asyncNumbers], result: number });
    assert.deepEqual([prettyDemand(o.result), prettyDemand(o.inputs[0]!), o.error], ['⊥', '1 : ⊥', undefined]);
    const r = await checkSpecAsync(sumAsyncSpec, sumAsync, { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
  });
});
