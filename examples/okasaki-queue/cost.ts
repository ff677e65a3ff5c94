/**
 * Measuring the work an operation does on lazy data, for the queue examples and the benchmark.
 *
 * Two counts:
 * - `evaluations`: thunks actually evaluated ({@link forceCount}). Each is evaluated at most once
 *   (memoised), so this counts *new* work only, and it is blind to work done inside one thunk:
 *   `List.reverse` walks a whole list inside a single thunk and counts 1.
 * - `steps`: calls of `force`, evaluated or not ({@link forceCallCount}): every look at a list
 *   cell or an element, i.e. every pattern match, the unit of work of a lazy program. `reverse`
 *   of n cells counts about n. This is the measure for "how much work did this operation do".
 * @module
 */
import { forceCallCount, forceCount } from '../../src/lazy/lazy.ts';

/** What one measured computation cost. */
export interface Cost {
  /** Calls of `force()` (evaluated or not): looks at lazy cells and elements. */
  readonly steps: number;
  /** Thunks evaluated for the first time ({@link forceCount}). */
  readonly evaluations: number;
}

/** Runs `body` and returns its result with what it cost. Synchronous bodies only. */
export function measure<R>(body: () => R): [R, Cost] {
  const startSteps = forceCallCount();
  const startEvaluations = forceCount();
  const result = body();
  return [result, { steps: forceCallCount() - startSteps, evaluations: forceCount() - startEvaluations }];
}

/** The cost of `body` alone. */
export function cost(body: () => unknown): Cost {
  return measure(body)[1];
}
