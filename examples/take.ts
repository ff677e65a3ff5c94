/**
 * `take` and `take'` (paper, section 2.2): two functions equal on every total input, with
 * different strictness. `take` looks at the count first; `take'` looks at the list first.
 * @module
 */
import { lazy, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { spec } from '../src/spec/spec.ts';

/** Haskell's `take`: the first `n` elements; never looks at the list when `n <= 0`. */
export function take<T>(n: Lazy<number>, xs: List<T>): List<T> {
  return lazy(() => {
    if (n.force() <= 0) return NIL;
    const cell = xs.force();
    return cell instanceof Cons ? new Cons(cell.head, take(lazy(() => n.force() - 1), cell.tail)) : NIL;
  });
}

/** The paper's `take'`: the same values, but it matches on the list before it looks at `n`. */
export function takePrime<T>(n: Lazy<number>, xs: List<T>): List<T> {
  return lazy(() => {
    const cell = xs.force();
    if (!(cell instanceof Cons)) return NIL;
    return n.force() > 0 ? new Cons(cell.head, takePrime(lazy(() => n.force() - 1), cell.tail)) : NIL;
  });
}

/** The shapes of `take`'s arguments and result: a lazy count, lazy lists of numbers. */
const args = [lazyOf(number), list(number)] as const;

/** The first attempt (paper, section 2.2): `n` always, and `xs` exactly as far as the result. Wrong when `n` runs out first. */
export const takeSpecFirstAttempt = spec(args, list(number), (predict, d, n, _xs) => predict(n, d));

/** The correct spec: `n` always; `xs` as far as the result, plus an unevaluated tail when the list is longer than `n`. */
export const takeSpec = spec(args, list(number), (predict, d, n, xs) =>
  predict(n, n.force() > L.length(xs) ? d : L.append(d, thunk)),
);
