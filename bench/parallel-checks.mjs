// The checks the parallel bench runs with workers, in plain JavaScript over the built package, as a
// user of it writes them: `take`, whose trials cost microseconds, and a `take` that first computes
// for about a millisecond. The workers import this module again.
import { defineCheck, spec, lazyOf, list, number, lazy, List, NIL, Cons, thunk } from 'strictcheck';

/** Haskell's `take`: the first `n` elements; never looks at the list when `n <= 0`. */
export const take = (n, xs) =>
  lazy(() => {
    if (n.force() <= 0) return NIL;
    const c = xs.force();
    return c instanceof Cons ? new Cons(c.head, take(lazy(() => n.force() - 1), c.tail)) : NIL;
  });

/** `n` always; `xs` as far as the result, plus an unevaluated tail when the list is longer than `n`. */
export const takeSpec = spec([lazyOf(number), list(number)], list(number), (predict, d, n, xs) =>
  predict(n, n.force() > List.length(xs) ? d : List.append(d, thunk)),
);

/** Iterations of {@link heavyTake}'s loop: about a millisecond of computation (a fixed amount of work, not of time, so that a loaded machine does not shorten it). */
const HEAVY_LOOP = 1_500_000;

let sink = 0;
/** `take`, after a fixed computation of about a millisecond. */
export function heavyTake(n, xs) {
  let x = 0;
  for (let i = 0; i < HEAVY_LOOP; i++) x = (x * 31 + i) | 0;
  sink ^= x;
  return take(n, xs);
}

export const takeBenchCheck = defineCheck(import.meta.url, 'take', takeSpec, take);
export const heavyBenchCheck = defineCheck(import.meta.url, 'heavy', takeSpec, heavyTake);
