/**
 * The force budget of a trial: the option `forceBudget`, or the default, scaled by the trial's inputs.
 * @module
 */
import { newRound, type GrowingBudget } from '../lazy/lazy.ts';
import { evaluatedPositions } from '../demand/size.ts';
import { DEFAULT_FORCE_BUDGET, SCALED_BUDGET } from './options.ts';

/** Forces per lazy position of a trial's inputs that the default force budget allows: a function linear in a large input is not divergent. */
const FORCES_PER_POSITION = 10;

/**
 * @internal The force budget of a trial (the function's, and the spec's as large): the option `forceBudget`,
 * or with the default, {@link FORCES_PER_POSITION} forces per lazy position evaluated in the
 * inputs where that is more, counted only if the trial spends the default (see {@link ScaledBudget}).
 */
export function trialBudget(forceBudget: number, inputs: readonly unknown[]): number | GrowingBudget {
  return forceBudget === SCALED_BUDGET ? new ScaledBudget(inputs) : forceBudget;
}

/**
 * @internal The default budget of a trial, scaled by its inputs: the walk that counts their positions
 * (as long as the inputs, where the function may read a cell of them) is made only for a trial
 * that spends {@link DEFAULT_FORCE_BUDGET}, once, counting what the inputs held when the trial
 * began (what the function and spec evaluated since is told apart by the round of evaluation).
 */
export class ScaledBudget implements GrowingBudget {
  readonly least = DEFAULT_FORCE_BUDGET;
  private readonly round = newRound();
  private counted: number | undefined;

  constructor(private readonly inputs: readonly unknown[]) {}

  more(): number {
    return (this.counted ??= FORCES_PER_POSITION * evaluatedPositions(this.inputs, this.least / FORCES_PER_POSITION, this.round));
  }
}
