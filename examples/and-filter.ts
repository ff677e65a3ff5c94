/**
 * `and` and `filter`, each written the Haskell way over explicitly lazy lists, with a spec of its
 * exact strictness written by hand (docs/specs.md sets them beside their declarative versions,
 * `spec-language.ts`): two walks that stop at what they look for.
 * @module
 */
import { defer, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, nil, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { boolean, fn, number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { spec } from '../src/spec/spec.ts';

/** The cells and elements a walk of `xs` met, in order, as a list demand: ending in `[]` if it reached the end, else in an unevaluated tail. */
function walked<T>(met: readonly Lazy<T>[], ended: boolean): List<T> {
  return met.reduceRight<List<T>>((tail, x) => L.lazyCons(x, tail), ended ? nil : thunk);
}

/** `and = foldr (&&) True`: forces cells and elements up to the first `False`. */
export function and(xs: List<boolean>): boolean {
  for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) if (!c.head.force()) return false;
  return true;
}

/** An `and` that looks at every element before answering: the same results, too strict. */
export function andStrict(xs: List<boolean>): boolean {
  return L.toArray(xs).every((x) => x);
}

/** `and`'s spec: the cells and elements of `xs` up to its first `False`, or all of it, down to its `[]`. */
export const andSpec = spec([list(boolean)], boolean, (predict, _d, xs) => {
  const met: Lazy<boolean>[] = [];
  for (let l = xs; ; ) {
    const c = l.force();
    if (c.tag === 'Nil') return predict(walked(met, true));
    met.push(c.head);
    if (!c.head.force()) return predict(walked(met, false));
    l = c.tail;
  }
});

/** The shape of `filter`'s predicate: random functions of numbers. */
export const predicate: Shape<(x: number) => boolean> = fn([number], boolean);

/** `filter p xs`: a result cell forces cells and elements of `xs` up to the next one `p` keeps. */
export function filter<T>(p: (x: T) => boolean, xs: List<T>): List<T> {
  return defer((): List<T> => {
    for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) if (p(c.head.force())) return now(new Cons(c.head, filter(p, c.tail)));
    return nil;
  });
}

/**
 * `filter`'s spec: each cons of the result demand needs `xs` walked to the next element `p`
 * keeps, its `[]` all of `xs`; every element walked is forced (`p` looks at it), and `p` is
 * called if an element was.
 */
export const filterSpec = spec([predicate, list(number)], list(number), (predict, d, p, xs) => {
  const wanted = L.isCapped(d) ? Infinity : L.length(L.cap(d));
  const met: Lazy<number>[] = [];
  let ended = false;
  for (let l = xs, kept = 0; kept < wanted; ) {
    const c = l.force();
    if (c.tag === 'Nil') {
      ended = true;
      break;
    }
    met.push(c.head);
    if (p(c.head.force())) kept++;
    l = c.tail;
  }
  predict(met.length > 0 ? p : thunk, walked(met, ended));
});
