/**
 * An optimisation that quietly changes strictness: two "faster" versions of `take`, checked
 * against `take` itself (examples/take.ts) as the reference, with no spec written.
 * - `takeFast` counts down a plain number instead of a chain of lazy counts: the same strictness.
 * - `takeShared` returns the list itself, uncopied, when it is no longer than `n`: to know that,
 *   it walks the whole spine, where `take` walks only as far as its result is demanded.
 * @module
 */
import { lazy, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { checkSameStrictness } from '../src/same-strictness.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { take } from './take.ts';

/** The first `k` cells of `xs`, one lazy cell at a time, counting with a plain number. */
function prefix<T>(k: number, xs: List<T>): Cell<T> {
  if (k <= 0) return NIL;
  const c = xs.force();
  return c instanceof Cons ? new Cons(c.head, lazy(() => prefix(k - 1, c.tail))) : NIL;
}

/** `take` with one force of `n` and no lazy count per cell: exactly as lazy as `take`. */
export function takeFast<T>(n: Lazy<number>, xs: List<T>): List<T> {
  return lazy(() => prefix(n.force(), xs));
}

/** `take` that shares a list no longer than `n` instead of copying it: it measures the whole list first. */
export function takeShared<T>(n: Lazy<number>, xs: List<T>): List<T> {
  return lazy(() => {
    const k = n.force();
    return k >= L.length(xs) ? xs.force() : prefix(k, xs);
  });
}

/** The shapes of take's arguments and result. */
export const takeShapes = [lazyOf(number), list(number)] as const;

/** Each optimised take checked against take: `takeFast` passes, `takeShared` fails with a diagram. */
export function checkOptimisedTakes(seed = 1): { fast: CheckResult; shared: CheckResult } {
  return {
    fast: checkSameStrictness(takeShapes, list(number), take, takeFast, { seed }),
    shared: checkSameStrictness(takeShapes, list(number), take, takeShared, { seed }),
  };
}
