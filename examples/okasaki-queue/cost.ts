/**
 * Measuring the work an operation does on lazy data, for the queue examples and the benchmark.
 *
 * Two counts:
 * - `evaluations`: thunks actually evaluated ({@link forceCount}). Each is evaluated at most once
 *   (memoised), so this counts *new* work only, and it is blind to work done inside one thunk:
 *   `List.reverse` walks a whole list inside a single thunk and counts 1.
 * - `steps`: calls of `Lazy.prototype.force`, evaluated or not: every look at a list cell or an
 *   element, i.e. every pattern match, the unit of work of a lazy program. `reverse` of n cells
 *   counts about n. This is the measure for "how much work did this operation do".
 *
 * `steps` is counted by wrapping `Lazy.prototype.force` for the duration of `measure` (and only
 * then): strictcheck has no counter of force calls of its own.
 * @module
 */
import { Lazy, forceCount } from '../../src/lazy/lazy.ts';

/** What one measured computation cost. */
export interface Cost {
  /** Calls of `force()` (evaluated or not): looks at lazy cells and elements. */
  readonly steps: number;
  /** Thunks evaluated for the first time ({@link forceCount}). */
  readonly evaluations: number;
}

const originalForce = Lazy.prototype.force;
let calls = 0;
let depth = 0;
function countingForce<T>(this: Lazy<T>): T {
  calls++;
  return originalForce.call(this) as T;
}

/** Runs `body` and returns its result with what it cost. Nests; synchronous bodies only. */
export function measure<R>(body: () => R): [R, Cost] {
  const startCalls = calls;
  const startEvaluations = forceCount();
  if (depth++ === 0) Lazy.prototype.force = countingForce;
  try {
    const result = body();
    return [result, { steps: calls - startCalls, evaluations: forceCount() - startEvaluations }];
  } finally {
    if (--depth === 0) Lazy.prototype.force = originalForce;
  }
}

/** The cost of `body` alone. */
export function cost(body: () => unknown): Cost {
  return measure(body)[1];
}
