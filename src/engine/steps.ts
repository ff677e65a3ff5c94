/**
 * The steps of a walk of cases (a random run's trials, an enumeration tree's cases, an inference's
 * observations), written once for running the cases synchronously and asynchronously: whoever
 * drives them runs each case they yield.
 * @module
 */
import type { Context } from '../demand/observe.ts';

/** A case for steps to run: its inputs, and the context that evaluates the function's result. */
export interface CaseRun {
  readonly inputs: readonly unknown[];
  readonly context: Context;
  /**
   * The force budget of a case run again (to shrink it, or for a report): the one its first run
   * had, which a budget made anew could not be, its inputs now holding what that run evaluated.
   * Without it, a case's budget is made from its inputs.
   */
  readonly budget?: number | undefined;
  /**
   * For a partial case (the exhaustive mode's), the total inputs standing for its inputs, by which a
   * message names it: its own hold holes, which refine when read and print as no source they stand for.
   */
  readonly total?: (() => readonly unknown[]) | undefined;
}

/** Steps that yield cases and get each one's outcome (`T`) back, or what running it threw thrown in, until they return `R`. */
export type CaseSteps<R, T> = Generator<CaseRun, R, T>;
