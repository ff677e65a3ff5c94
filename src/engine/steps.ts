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
}

/** Steps that yield cases and get each one's outcome (`T`) back, or what running it threw thrown in, until they return `R`. */
export type CaseSteps<R, T> = Generator<CaseRun, R, T>;
