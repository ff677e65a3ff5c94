/**
 * `flatMap(f, xs)`: the elements of `f(x)` for each `x` of `xs`, pulling `xs` only when the
 * inner iterable at hand is used up. A `flatMap` that fetches the next outer element before it
 * runs through the current one (a prefetch) pulls its source ahead of its consumer, and never
 * closes it.
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import { closedAfter, endOf, iterable, pullCount, pulls, untouched } from '../../src/iter/index.ts';
import { readSource, toItsEnd } from './read-source.ts';

const numbers = iterable(number);

/**
 * The function checked: `x` gives 1 or 2 elements (an empty expansion of every element of an
 * infinite source would have any `flatMap` pull it for ever).
 */
export function* expand(x: number): Generator<number> {
  for (let i = 0; i <= Math.abs(x) % 2; i++) yield x + i;
}

/**
 * flatMap's spec, for {@link expand}: the result's k pulls take the fewest outer elements whose
 * expansions hold k elements; the result ended took the source to its end; closed, it closes the
 * source after those (untouched if closed before its first pull).
 */
export const flatMapSpec = spec([numbers], numbers, (predict, d, xs) => {
  const k = pullCount(d);
  const end = endOf(d);
  if (end === 'done' || end === 'threw') {
    return predict(toItsEnd(readSource(xs, Infinity)));
  }
  if (k === 0) return predict(untouched);
  // Outer elements, one at a time, until their expansions hold k elements: k at most, as each gives one or two.
  const read = readSource(xs, k);
  let m = 0;
  for (let held = 0; held < k; ) held += [...expand(read.values[m++]!)].length;
  const taken = pulls(read.values.slice(0, m), 'open');
  predict(end === 'open' ? taken : closedAfter(taken, xs));
});

/** `flatMap`: `yield*` runs through each inner iterable before for…of pulls the next outer element. */
export function* flatMap<T, U>(f: (x: T) => Iterable<U>, xs: Iterable<T>): Generator<U> {
  for (const x of xs) yield* f(x);
}

/** Fetches the next outer element before running through the current one's expansion. */
export function* flatMapPrefetching<T, U>(f: (x: T) => Iterable<U>, xs: Iterable<T>): Generator<U> {
  const it = xs[Symbol.iterator]();
  let current = it.next();
  while (!current.done) {
    const next = it.next();
    yield* f(current.value);
    current = next;
  }
}
