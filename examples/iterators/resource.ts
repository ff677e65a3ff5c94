/**
 * A generator whose `finally` releases a resource (a file handle, a lock, a connection) runs that
 * `finally` only if its consumer closes it: by running to its end, or by `return()` when it stops
 * early (what `break` and a `return` inside `for…of` do). So the strictness that matters here is
 * the consumer's: `firstEven` must close its source once it has found what it looks for. One that
 * pulls with `next()` by hand stops without closing it, and the resource leaks.
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import fc from 'fast-check';
import { closedAfter, pulls } from '../../src/iter/index.ts';
import { readSource, toItsEnd } from './read-source.ts';
import { finiteSources } from './finite-sources.ts';

/**
 * Finite sources of digits, which may throw at a pull or from their `return`: one looking through
 * an infinite source with no even element never ends. firstEven passes a failure on, as any
 * `for…of` does; its result is then ⊥, which its spec need not read.
 */
export const digitSources = finiteSources(fc.nat(9), number);

/** A resource that counts how many times it was opened and released. */
export class Resource {
  opened = 0;
  released = 0;
}

/** The lines of a resource (here numbers): opened at the first pull, released in `finally`. */
export function* linesOf(resource: Resource, lines: readonly number[]): Generator<number> {
  resource.opened++;
  try {
    yield* lines;
  } finally {
    resource.released++;
  }
}

/**
 * firstEven's spec: its source is pulled up to its first even element, then closed; without one,
 * to its end (`[]`, or `⊥` where it throws first).
 */
export const firstEvenSpec = spec([digitSources], number, (predict, _d, xs) => {
  for (let k = 1; ; k++) {
    const read = readSource(xs, k);
    if (read.values.length < k) return predict(toItsEnd(read));
    if (read.values[k - 1]! % 2 === 0) return predict(closedAfter(pulls(read.values, 'open'), xs));
  }
});

/** The first even element of `xs`, or -1: the `return` inside `for…of` closes `xs`. */
export function firstEven(xs: Iterable<number>): number {
  for (const x of xs) if (x % 2 === 0) return x;
  return -1;
}

/** The same, pulling by hand: it stops without closing its source, whose `finally` never runs. */
export function firstEvenLeaking(xs: Iterable<number>): number {
  const it = xs[Symbol.iterator]();
  for (let r = it.next(); !r.done; r = it.next()) if (r.value % 2 === 0) return r.value;
  return -1;
}
