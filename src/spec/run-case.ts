/**
 * Running one case: the function observed on its inputs under a context, within a force budget,
 * and compared with the spec's prediction; the steps of a check, written once for running its
 * cases synchronously and asynchronously; and the errors of a case that are the user's own.
 * @module
 */
import { ForceBudgetExceeded, withBudget, type GrowingBudget, type withForceBudget } from '../lazy/lazy.ts';
import { definedBelow, equalDemands, type Demand } from '../demand/demand.ts';
import { argumentName, ObservationRun, observeDetailedAsync, type Context, type DetailedObservation, type ObserveShapes } from '../demand/observe.ts';
import { findRevoked } from '../demand/revoked-proxy.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { CaseRun, CaseSteps } from '../engine/steps.ts';
import { MATCHED, predictMatching, SpecError, type Spec } from './spec.ts';
import { SCALED_BUDGET, type Settings } from './options.ts';
import { trialBudget } from './trial-budget.ts';
import { refuseChangedInputs } from './spec-changes.ts';
import { showInputs } from './report.ts';
import type { Counterexample } from './result.ts';
import { runAsCase, UnhandledRejectionError } from './unhandled-rejections.ts';
import { lastAsked } from '../demand/last-asked.ts';
import { caseStarts } from './stall-watch.ts';
import './hidden-classes.ts'; // the samples that keep the hot paths' hidden classes alive

/** @internal */
export type Fn = (...args: any[]) => unknown;
/** @internal */
export type AnySpec = Spec<readonly unknown[], unknown>;

/** @internal One observed case: a counterexample when it failed. */
export interface Trial extends Counterexample {
  readonly failed: boolean;
  /**
   * When the run threw: its context. Its demand on the result lacks the part whose evaluation
   * threw (nothing was recorded there), so forcing that demand again would not reproduce the
   * throw: shrinking and reporting run this context again instead.
   */
  readonly replay?: Context | undefined;
  /**
   * When it failed: the force budget it ran under, which its runs again take (see
   * {@link CaseRun.budget}), so that a divergence found is reproduced and shrunk under it.
   */
  readonly budget?: number | undefined;
}

/** @internal The counterexample of a failed case. */
export function counterexampleOf(t: Trial): Counterexample {
  const { failed: _, replay: __, budget: ___, ...counterexample } = t;
  return counterexample;
}

/**
 * Observes one case (its inputs and context, and its budget where it is run again) and compares it
 * with the spec. Spec errors and shape mismatches propagate. The spec gets a budget of its own, as
 * large as the function's: it is user code that can walk an infinite input for ever as well
 * (running out is a spec error). `phase` is told who runs: the function (with the context), then
 * the spec (with the comparison), so that a worker's timeout blames the right one.
 */
export function runCase(run: CaseRunner, c: CaseRun, phase?: (who: 'function' | 'spec') => void): Trial {
  caseStarts();
  const budget = caseBudget(run.settings.forceBudget, c);
  phase?.('function');
  const obs = observeWithin(budget, c.context, run.fn, c.inputs, observeShapes(run.spec));
  phase?.('spec');
  return judge(run, c, obs, budget);
}

/** @internal {@link runCase} of a function over async iterables or returning a Promise: observed asynchronously, its pulls of async iterables counted against the budget. */
export async function runCaseAsync(run: CaseRunner, c: CaseRun, phase?: (who: 'function' | 'spec') => void): Promise<Trial> {
  caseStarts();
  const { spec: s, fn } = run;
  // Worked out at once: the rounds of evaluation of cases run concurrently would mix.
  const budget = resolved(caseBudget(run.settings.forceBudget, c));
  phase?.('function');
  const obs = await observeCaseAsync(c.context, fn, c.inputs, observeShapes(s), budget, c.total);
  phase?.('spec');
  // A spec whose prediction awaits something has its body for this case made now (none is asked of a case that threw).
  if (s.bodyAsync === undefined || obs.error !== undefined) return judge(run, c, obs, budget);
  return judge({ ...run, spec: { ...s, body: await s.bodyAsync(obs.result, c.inputs, budget) } }, c, obs, budget);
}

/**
 * @internal The asynchronous observation of a case, whose rejections left unhandled (while a run
 * holds them: see unhandled-rejections.ts) fail it as a throw does (a throw of its own first). A
 * rejection that comes after it names it by `named` inputs: its own, or a partial case's total ones (see {@link CaseRun.total}).
 */
export async function observeCaseAsync(context: Context, fn: Fn, inputs: readonly unknown[], shapes: ObserveShapes, budget?: number, named = () => inputs): Promise<DetailedObservation> {
  // A rejection left unhandled before the case (by the last case's spec) is told now, while no case
  // runs; timers the last case's function left may fire too (in a worker, in the function's phase).
  await new Promise((r) => setImmediate(r));
  const show = (them: readonly unknown[]) => showInputs({ args: shapes.inputs ?? [] }, them);
  // It ends once the pulls the function made have settled, and a turn later: a rejection it left unhandled has been told.
  const { value: observed, left } = await runAsCase(named, show, () => observeDetailedAsync(context, fn, inputs, shapes, budget));
  return left === undefined || observed.error !== undefined ? observed : { ...observed, error: { thrown: new UnhandledRejectionError(left.reason) } };
}

/** The shapes an observation of a case of spec `s` reads its inputs and result by; those of the spec asked last kept: a check asks on every trial. */
const observeShapes = lastAsked((s: AnySpec, _: void): ObserveShapes => ({ inputs: s.args, result: s.result, names: s.names }));

/** @internal What runs a case: the spec and function, and the settings a case reads. */
export interface CaseRunner {
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly settings: Pick<Settings<'property'>, 'forceBudget' | 'comparisons'>;
}

/**
 * @internal The runner of the cases of `spec` and `fn` under `settings`, what a case reads of them
 * in an object of its own: a run's settings, spread from an object built option by option, have a
 * hidden class each, which V8's optimised code read through the megamorphic load on every trial.
 */
export function caseRunner(spec: AnySpec, fn: Fn, settings: CaseRunner['settings']): CaseRunner {
  return { spec, fn, settings: { forceBudget: settings.forceBudget, comparisons: settings.comparisons } };
}

/** A case observed, compared with the spec's prediction; a failed one keeps its budget (see {@link Trial.budget}). */
function judge({ spec: s, settings }: CaseRunner, { inputs, context }: CaseRun, obs: DetailedObservation, budget: number | GrowingBudget): Trial {
  if (obs.error !== undefined) return observedTrial(inputs, settings.forceBudget === SCALED_BUDGET ? functionsDoing(obs) : obs, context, budget);
  const compare = settings.comparisons;
  const predicted = predictRefusingRevoked(budget, s, obs.result, inputs, allHoldOfEqual(compare, undefined) ? obs.inputs : undefined);
  // Every prediction was the demand observed: their demands are those.
  if (predicted === MATCHED) return trialOf(inputs, obs, obs.inputs, false);
  let failed = false;
  for (let i = 0; i < predicted.length && !failed; i++) failed = !compare[i]!(obs.inputs[i]!, predicted[i]!);
  if (!failed) return trialOf(inputs, obs, predicted, false);
  refuseChangedInputs(s, inputs, obs.inputs);
  return { ...trialOf(inputs, obs, predicted, true), budget: resolved(budget) };
}

/**
 * @internal The trial of a case as far as its observation tells without a spec: failed where the
 * function threw (run again in `context`, see {@link Trial.replay}, under `budget`), else passed,
 * nothing predicted; a check judges the rest by its spec, an inference knows no more. A shape
 * mismatch is the user's mistake, thrown.
 */
function observedTrial(inputs: readonly unknown[], obs: DetailedObservation, context: Context | undefined, budget: number | GrowingBudget): Trial {
  if (obs.error === undefined) return trialOf(inputs, obs, [], false);
  // Tested only for an error: `undefined instanceof` calls ShapeMismatchError's own Symbol.hasInstance (a call into the runtime) on every trial.
  if (obs.error.thrown instanceof ShapeMismatchError) throw obs.error.thrown;
  return { ...trialOf(inputs, obs, [], true), error: obs.error, replay: context, budget: resolved(budget) };
}

/**
 * @internal The trial of case `c` with no spec to judge it by (an inference's): observed as a
 * check observes it, under the default force budget scaled to its inputs, so that a function that
 * diverges fails its trial as one that throws does (see {@link observedTrial}), where it ran for ever.
 */
export function unjudgedTrial(fn: Fn, c: CaseRun, shapes: ObserveShapes): Trial {
  const budget = caseBudget(SCALED_BUDGET, c);
  return observedTrial(c.inputs, functionsDoing(observeWithin(budget, c.context, fn, c.inputs, shapes)), c.context, budget);
}

/** @internal {@link unjudgedTrial} observed asynchronously (see {@link runCaseAsync}). */
export async function unjudgedTrialAsync(fn: Fn, c: CaseRun, shapes: ObserveShapes): Promise<Trial> {
  const budget = resolved(caseBudget(SCALED_BUDGET, c));
  return observedTrial(c.inputs, functionsDoing(await observeCaseAsync(c.context, fn, c.inputs, shapes, budget)), c.context, budget);
}

/**
 * `obs` with its error the function's doing, wherever it was thrown: the default budget, scaled to
 * the inputs, runs out only for a function that diverges, even where the context forced its result.
 */
function functionsDoing(obs: DetailedObservation): DetailedObservation {
  if (obs.error?.forcingResult === undefined) return obs;
  const { forcingResult: _, ...error } = obs.error;
  return { ...obs, error };
}

/** The trial of a case on `inputs` observed as `obs`, with the spec's prediction: what every trial holds. */
function trialOf(inputs: readonly unknown[], obs: DetailedObservation, predicted: readonly Demand[], failed: boolean): Trial {
  return { inputs, resultDemand: obs.result, actual: obs.inputs, predicted, failed };
}

/**
 * The number of forces `budget` allows; for a budget scaled by a trial's inputs, worked out (if the
 * trial did not) while its round of evaluation lasts, which counts the inputs as they were when it began.
 */
function resolved(budget: number | GrowingBudget): number {
  return typeof budget === 'number' ? budget : Math.max(budget.least, budget.more());
}

/** The comparisons of a check that hold of equal demands, `exact` and `noStricter`: a prediction equal to the demand observed passes them. */
const HOLD_OF_EQUAL = new Set<unknown>([equalDemands, definedBelow]);

/** Whether every comparison of a run's `compare` holds of equal demands, that of the run asked last kept: a WeakMap was looked up on every trial. */
const allHoldOfEqual = lastAsked((compare: readonly unknown[], _: void): boolean => compare.every((c) => HOLD_OF_EQUAL.has(c)));

/** @internal The steps of a check, written once for both ways of running a case: each yields a case and gets its trial back. */
export type Steps<R> = CaseSteps<R, Trial>;

/** @internal Runs `steps`, each case (or what else they yield, as an exhaustive run's depths) by `run`, synchronously. */
export function drive<R, Y = CaseRun, T = Trial>(steps: Generator<Y, R, T>, run: (c: Y) => T): R {
  let step = steps.next();
  while (!step.done) {
    let t: T;
    try {
      t = run(step.value);
    } catch (err) {
      step = steps.throw(err);
      continue;
    }
    step = steps.next(t);
  }
  return step.value;
}

/**
 * @internal How a runner of both kinds of check (a worker, the run with workers) runs the cases of
 * `run`: by {@link runCase}, or for an asynchronous check by {@link runCaseAsync}, whose trial is a
 * promise; `drive` runs a check's steps so.
 */
export interface CaseDriver {
  run(inputs: readonly unknown[], context: Context, budget?: number): Trial | Promise<Trial>;
  drive<R>(steps: Steps<R>): R | Promise<R>;
}

/** @internal The {@link CaseDriver} of `run`, an asynchronous check (`async`) or not (`phase`: see {@link runCase}). */
export function caseDriver(given: CaseRunner, async: boolean, phase?: (who: 'function' | 'spec') => void): CaseDriver {
  const run = caseRunner(given.spec, given.fn, given.settings);
  if (!async) return { run: (inputs, context, budget) => runCase(run, { inputs, context, budget }, phase), drive: (steps) => drive(steps, (c) => runCase(run, c, phase)) };
  return { run: (inputs, context, budget) => runCaseAsync(run, { inputs, context, budget }, phase), drive: (steps) => driveAsync(steps, (c) => runCaseAsync(run, c, phase)) };
}

/** @internal Runs `steps`, each case (or what else they yield) by `run`, awaiting it. */
export async function driveAsync<R, Y = CaseRun, T = Trial>(steps: Generator<Y, R, T>, run: (c: Y) => Promise<T>): Promise<R> {
  let step = steps.next();
  while (!step.done) {
    let t: T;
    try {
      t = await run(step.value);
    } catch (err) {
      step = steps.throw(err);
      continue;
    }
    step = steps.next(t);
  }
  return step.value;
}

/**
 * The spec's prediction, or, if it fails and an input holds a revoked Proxy (the spec passed an
 * input through, and reading it threw), the mismatch naming where the Proxy is: the input's fault,
 * not the spec's.
 */
function predictRefusingRevoked(budget: number | GrowingBudget, s: AnySpec, resultDemand: Demand, inputs: readonly unknown[], actual: readonly Demand[] | undefined): Demand[] | typeof MATCHED {
  try {
    return predictMatching(budget, s, resultDemand, inputs, actual);
  } catch (err) {
    throw findRevoked(inputs, s.args.map((_, i) => argumentName(s.names, i))) ?? err;
  }
}

/**
 * An observation under a force budget: a function that ran out of it diverged, even if it caught
 * the error and returned (then {@link withForceBudget} throws on return), with the demands recorded.
 */
function observeWithin(budget: number | GrowingBudget, context: Context, fn: Fn, inputs: readonly unknown[], shapes: ObserveShapes): DetailedObservation {
  const run = new ObservationRun(context, fn, inputs, shapes);
  try {
    return withBudget(budget, run.observe, run);
  } catch (thrown) {
    if (run.observed === undefined || !(thrown instanceof ForceBudgetExceeded)) throw thrown;
    // The budget's error as the observation recorded it, if it did (with where it ran out), else as thrown on return.
    return { ...run.observed, error: run.observed.error?.thrown === thrown ? run.observed.error : { thrown } };
  }
}

/**
 * The force budget of case `c` (the function's, and the spec's as large), the one place it is
 * decided: where the case is run again, that of its first run (see {@link CaseRun.budget}); else
 * the trial's, from the option `forceBudget` (see {@link trialBudget}).
 */
function caseBudget(forceBudget: number, c: CaseRun): number | GrowingBudget {
  return c.budget ?? trialBudget(forceBudget, c.inputs);
}

/**
 * @internal Whether `err`, thrown while a case ran, is the user's own mistake in the spec or the
 * shapes (a spec error, a shape mismatch), which a check throws rather than report as a failure,
 * and which shrinking skips: a smaller case the spec cannot handle is no smaller counterexample.
 */
export function isCaseError(err: unknown): err is SpecError | ShapeMismatchError {
  return err instanceof SpecError || err instanceof ShapeMismatchError;
}

/** @internal A {@link isCaseError} error, named by `where` its case ran (made only for one) and the case's inputs. */
export function blameCase(err: unknown, spec: AnySpec, where: () => string, inputs: readonly unknown[]): unknown {
  if (isCaseError(err)) err.message = `${err.message} (${where()}, inputs ${showInputs(spec, inputs)})`;
  return err;
}
