/**
 * How much a value holds already evaluated, for a force budget that grows with the inputs: a
 * function linear in a large input must not be taken for one that diverges.
 * @module
 */
import { evaluatedBefore, Lazy, peek } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { isDataObject, lenient } from './dynamic.ts';

/**
 * @internal The number of `Lazy` positions in the evaluated parts of `values`, up to `limit` or a
 * little past it (an unevaluated `Lazy` counts, what it would hold does not). A first walk counts
 * without remembering what it met, which costs next to nothing on the small values of most
 * trials; only past `limit` does it count again, reaching each object once, so that sharing and
 * cycles count what they hold, not what they unfold to. List spines are walked along their tails
 * with Brent's cycle detection rather than remembered cell by cell (a spine shared by two lists
 * counts twice). With `round`, what was evaluated in that round of evaluation (see `newRound`)
 * counts as not evaluated: the values are counted as they were when it began.
 */
export function evaluatedPositions(values: readonly unknown[], limit: number, round = NaN): number {
  const quick = count(values, limit, undefined, round);
  return quick <= limit ? quick : count(values, Infinity, new Set(), round);
}

/** The walk of {@link evaluatedPositions}, stopping once past `limit`; with `seen`, each object once. */
function count(values: readonly unknown[], limit: number, seen: Set<unknown> | undefined, round: number): number {
  const stack: unknown[] = values.slice();
  let n = 0;
  let layers = 0; // walked without `seen`, past `limit` of them the walk stops, as past `limit` positions (shared strict structure holds no Lazy)
  // No closure (under tsx, one made per call was renamed, a defineProperty, on every call) and no destructuring: this walk runs on every trial's inputs.
  while (stack.length > 0 && n <= limit) {
    if (seen === undefined && ++layers > limit) return limit + 1;
    try {
      let v = stack.pop();
      // What a Lazy holds, each Lazy counted: `undefined` where it is not evaluated, or met before
      // (only a Lazy holding an object is remembered: one holding a primitive closes no cycle).
      for (; v instanceof Lazy; n++) {
        const next: unknown = evaluatedBefore(v, round) ? peek(v) : undefined;
        if (seen !== undefined && typeof next === 'object' && next !== null && (seen.has(v) || !seen.add(v))) {
          v = undefined;
          break;
        }
        v = next;
      }
      // Along the spine: the mark moves to the cell `span` cells on, `span` doubling (Brent).
      for (let mark = v, steps = 0, span = 1; v instanceof Cons && n <= limit; ) {
        stack.push(v.head);
        n++;
        const tail = v.tail;
        v = tail instanceof Lazy && evaluatedBefore(tail, round) ? peek(tail) : undefined;
        if (v === mark) v = undefined;
        else if (++steps === span) {
          mark = v;
          steps = 0;
          span *= 2;
        }
      }
      // An instance of a class (an opaque Date, a generated source) holds nothing counted here.
      if (v === null || typeof v !== 'object' || seen?.has(v) || !isDataObject(v)) continue;
      seen?.add(v);
      for (const field of lenient.project(v, null).fields) stack.push(field);
    } catch {
      // What cannot be looked at (a revoked Proxy) counts as nothing here: observing it reports the problem.
    }
  }
  return n;
}
