/**
 * `take` over iterables (docs/iterators.md): its spec reads like `take`'s over lists, a generator
 * `take` meets it, and two common bugs fail it: pulling element n+1 before seeing that n are
 * taken, and stopping early without closing the source (its `finally` never runs).
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import { closedAfter, endOf, iterable, pullCount, pullsOf, untouched, type AnyIterDemand, type IterDemand } from '../../src/iter/index.ts';

/** Re-iterable sources of numbers. */
export const numbers = iterable(number);

/**
 * What `take n` puts on its source `xs` under demand `d` on its result: as far as the result, and
 * closed (if `xs` can be) where the result is closed or where `take` reached `n` (the result then
 * ends, in `⊥` if the source's `return` threw); nothing at all when `n <= 0`, or when the result
 * is closed before its first pull.
 */
export function takeSource(d: AnyIterDemand<number>, n: number, xs: AnyIterDemand<number>): IterDemand<number> {
  const k = pullCount(d);
  const end = endOf(d);
  const closedByConsumer = end === 'return' || end === 'throw';
  if (n <= 0 || (k === 0 && closedByConsumer)) return untouched;
  // The pulls of the result, not how far ahead its consumer read: take pulls its source one at a time.
  return closedByConsumer || ((end === 'done' || end === 'threw') && k === n) ? closedAfter(d, xs) : (pullsOf(d) as unknown as IterDemand<number>);
}

/** take's spec over iterables. */
export const takeSpec = spec([number, numbers], numbers, (predict, d, n, xs) => predict(n, takeSource(d, n, xs)));

/** A generator `take`: `for…of` closes the source when it returns. */
export function* take<T>(n: number, it: Iterable<T>): Generator<T> {
  if (n <= 0) return;
  for (const x of it) {
    yield x;
    if (--n <= 0) return;
  }
}

/** Pulls element n+1 before it sees it has n (iter-ops #224, fast-check's Stream #1784). */
export function* takePullsOneMore<T>(n: number, it: Iterable<T>): Generator<T> {
  let i = 0;
  for (const x of it) {
    if (i++ >= n) return;
    yield x;
  }
}

/** Pulls with `next()` and stops early without `return()`: a source's `finally` never runs (tc39/proposal-iterator-helpers #102). */
export function* takeWithoutClosing<T>(n: number, it: Iterable<T>): Generator<T> {
  const source = it[Symbol.iterator]();
  for (let i = 0; i < n; i++) {
    const r = source.next();
    if (r.done) return;
    yield r.value;
  }
}
