/**
 * `zip` over two iterables: pairs their elements until one of them ends, then closes the other,
 * as TC39's `Iterator.zip` does (its default mode, "shortest"); when its consumer closes it, it
 * closes both. A `zip` that runs a `for…of` over the first source and pulls the second by hand
 * forgets to close the second when the first ends, or when the consumer stops.
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { tuple } from '../../src/demand/tuples.ts';
import { spec } from '../../src/spec/spec.ts';
import { closedAfter, endOf, iterable, pulledElements, pulls, untouched } from '../../src/iter/index.ts';
import { readSource, toItsEnd } from './read-source.ts';

const numbers = iterable(number);
/** Pairs of numbers. */
export const pairs = iterable(tuple(number, number));

/**
 * zip's spec: as many pulls of each source as of the result; then, where the result ended (`[]`,
 * or `⊥`), the source that ended is done or has `⊥` as it did, and the other is closed (whose
 * `return` may throw: the result's `⊥` then); where the consumer closed it, both are closed
 * (untouched if it did before the first pull: a generator closed before it starts runs nothing).
 */
export const zipSpec = spec([numbers, numbers], pairs, (predict, d, xs, ys) => {
  const got = pulledElements(d);
  const k = got.length;
  const [firsts, seconds] = [got.map((p) => p[0]), got.map((p) => p[1])];
  const closed = (values: number[], source: Iterable<number>) => closedAfter(pulls(values, 'open'), source);
  const end = endOf(d);
  if (end === 'open') return predict(pulls(firsts, 'open'), pulls(seconds, 'open'));
  if (end === 'return' || end === 'throw') return k === 0 ? predict(untouched, untouched) : predict(closed(firsts, xs), closed(seconds, ys));
  // The result ended at pull k+1: the first source ended or threw there, or it answered and the second ended or threw.
  const first = readSource(xs, k);
  if (first.then !== 'more') return predict(toItsEnd(first), closed(seconds, ys));
  return predict(closed([...firsts, readSource(xs, k + 1).values[k]!], xs), toItsEnd(readSource(ys, k)));
});

/**
 * `zip`, closing the other source when one ends or throws, and both when it is closed: each of
 * them, even after a `return` that threw, whose error is then passed on, unless zip is on its way
 * out of a throw (as TC39's `Iterator.zip` closes).
 */
export function* zip<A, B>(xs: Iterable<A>, ys: Iterable<B>): Generator<[A, B]> {
  const a = xs[Symbol.iterator]();
  const b = ys[Symbol.iterator]();
  // The iterators to close on the way out: not one that ended or threw.
  let open: Iterator<unknown>[] = [a, b];
  const pull = <T>(it: Iterator<T>): IteratorResult<T> => {
    try {
      const r = it.next();
      if (r.done) open = open.filter((o) => o !== it);
      return r;
    } catch (err) {
      open = open.filter((o) => o !== it);
      throw err;
    }
  };
  let threw = false;
  try {
    for (;;) {
      const x = pull(a);
      if (x.done) return;
      const y = pull(b);
      if (y.done) return;
      yield [x.value, y.value];
    }
  } catch (err) {
    threw = true;
    throw err;
  } finally {
    closeAll(open, threw);
  }
}

/**
 * Closes each of `its` in order, even after a `return` that threw; the first error of a `return`
 * is then thrown, unless the closing is the way out of a throw (`throwing`), whose error it does
 * not replace (TC39's IteratorCloseAll).
 */
export function closeAll(its: readonly Iterator<unknown>[], throwing: boolean): void {
  let failed: { err: unknown } | undefined;
  for (const it of its) {
    try {
      it.return?.();
    } catch (err) {
      failed ??= { err };
    }
  }
  if (failed !== undefined && !throwing) throw failed.err;
}

/** A `zip` that forgets the second source: for…of closes the first when it stops early, nothing closes the second. */
export function* zipLeaky<A, B>(xs: Iterable<A>, ys: Iterable<B>): Generator<[A, B]> {
  const b = ys[Symbol.iterator]();
  for (const x of xs) {
    const y = b.next();
    if (y.done) return;
    yield [x, y.value];
  }
}
