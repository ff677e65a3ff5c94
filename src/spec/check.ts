/**
 * Checking a spec against a function: random inputs, random contexts, observation, comparison,
 * shrinking of inputs *and* of the demand on the result, and the counterexample diagram.
 * @module
 */
import { inspect, type InspectOptions } from 'node:util';
import { ForceBudgetExceeded, Lazy, peek, withForceBudget } from '../lazy/lazy.ts';
import { definedBelow, demandEquals, equalDemands, Forced, forcedNode, type Demand } from '../demand/demand.ts';
import { argumentName, observeDetailed, observeDetailedAsync, type Context, type DetailedObservation } from '../demand/observe.ts';
import { findRevoked } from '../demand/revoked-proxy.ts';
import { prettyDemand } from '../demand/print.ts';
import { valuePrefix } from '../demand/convert.ts';
import { describeSafely } from '../demand/describe.ts';
import { insideLazy } from '../demand/shape-fit.ts';
import { evaluatedPositions } from '../demand/size.ts';
import { lenient } from '../demand/dynamic.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Shape } from '../demand/shape-types.ts';
import { perShape, someShapeWithin } from '../demand/shape-walk.ts';
import { Seed } from '../engine/random.ts';
import { generateInputs } from '../engine/generate.ts';
import { resetCalls } from '../engine/random-function.ts';
import { fitContext, randomContext } from '../engine/context.ts';
import { shrinkDemand, shrinkValue } from '../engine/shrink.ts';
import { drawDiagram, unicodeTerminal } from './diagram.ts';
import { checkArity, predictWithin, SpecError, type Spec } from './spec.ts';
import { checkKnownOptions, showOption } from '../engine/options.ts';
import { checkCoverageOption, CoverageTally, withCoverage, type Coverage, type CoverageRequirement } from './coverage.ts';
import { refuseInWorker } from './registry.ts';
import { shardIndices } from './shard.ts';
import { isInstance, safeInstanceof } from '../lazy/thrown.ts';
import { keepHiddenClasses } from '../lazy/v8.ts';
import './hidden-classes.ts'; // the samples that keep the hot paths' hidden classes alive

/**
 * How an observed input demand is compared with the spec's: `'exact'` (equal), `'noStricter'`
 * (the function evaluates no more than the spec says), `'noLazier'` (at least as much), or a
 * function of `(actual, predicted)`.
 */
export type Comparison = 'exact' | 'noStricter' | 'noLazier' | ((actual: Demand, predicted: Demand) => boolean);

/** Options of the checks. */
export interface CheckOptions {
  /** Number of random trials. Default 100. */
  readonly trials?: number | undefined;
  /** Seed of the run; the same seed reproduces the same run and counterexample. Default: random. */
  readonly seed?: number | undefined;
  /** Largest size of generated inputs and contexts (sizes cycle 0, 1, …, maxSize, 0, 1, … over the run, as in QuickCheck). Default 30. */
  readonly maxSize?: number | undefined;
  /** The comparison for every argument, or one per argument. Default `'exact'`. */
  readonly compare?: Comparison | readonly Comparison[] | undefined;
  /** Most forces (calls of `force`, on evaluated thunks too) one trial may make before it counts as diverging: catches infinite and cyclic structures walked forever, without a timer. The spec has a budget as large (running past it is a {@link SpecError}). Default 1,000,000, or 10 per lazy position evaluated in the trial's inputs where that is more (a function linear in a large input is not divergent); `Infinity`: no limit. */
  readonly forceBudget?: number | undefined;
  /** Most candidates tried while shrinking. Default 2,000; `Infinity`: no limit. */
  readonly maxShrinkAttempts?: number | undefined;
  /** Draw the diagram with Unicode box characters; default: if the terminal supports them. */
  readonly unicode?: boolean | undefined;
  /**
   * Runs only the trials of shard `"i/n"` (1-based): the trial indices ≡ i-1 (mod n). The `n` shards
   * of a run together run exactly the trials of the unsharded run (e.g. one shard per CI runner).
   */
  readonly shard?: string | undefined;
  /** Called with the index of each trial completed (for progress and tests). */
  readonly onTrial?: ((index: number) => void) | undefined;
  /**
   * Minimum shares of the trials that must leave the result or an argument not forced, partly or
   * fully forced (see {@link CoverageRequirement}): `{ result: { partial: 0.2 } }` fails a run in
   * which fewer than 20% of the trials demanded part of the result, though every trial passed.
   */
  readonly coverage?: CoverageRequirement | undefined;
}

/** A failing case, shrunk. */
export interface Counterexample {
  /** The inputs of the failing trial. */
  readonly inputs: readonly unknown[];
  /** The demand the context put on the function's result (`_` when unknown: a case stopped in a worker, whose error is a `TrialTimeoutError` or `WorkerCrashError`). */
  readonly resultDemand: Demand;
  /** The demand the function put on each input (observed; `_` when unknown, as for {@link resultDemand}). */
  readonly actual: readonly Demand[];
  /** The demand the spec predicted on each input. */
  readonly predicted: readonly Demand[];
  /** Present when the function (or its context) threw: what was thrown. */
  readonly error?: {
    /** The thrown value, whatever it is (wrapped so that a thrown `undefined` still shows). */
    readonly thrown: unknown;
    /** What the shapes say of a `force` called on what is not a Lazy, if they say something: the report prints it below the error. */
    readonly hint?: string;
  };
}

/** What a check found. */
export interface CheckResult {
  /** Whether every trial agreed with the spec. */
  readonly passed: boolean;
  /** How many trials ran (up to the failing one). */
  readonly trials: number;
  /** The seed of the run: pass it as `seed` to run the same trials again. */
  readonly seed: number;
  /** How many smaller counterexamples shrinking found after the first. */
  readonly shrinks: number;
  /** The smallest counterexample found, for a failure (none for a failure seen only in a worker, which passes in this thread: its message shows the worker's diagram). */
  readonly counterexample?: Counterexample;
  /** A report: a line of summary, and for a failure the diagram and how to reproduce it. */
  readonly message: string;
  /** How far the trials forced the result and each argument (a run in this thread; the failing trial is not counted). */
  readonly coverage?: Coverage;
}

/** Thrown by `assertSpec` and `strictCheckSpecExact` when the spec and the function disagree; its message holds the diagram. */
export class StrictCheckFailure extends Error {
  /** Always `'StrictCheckFailure'`: the name a test runner prints before its report. */
  override name = 'StrictCheckFailure';
  /** The failed check's result, with its counterexample. */
  declare readonly result: CheckResult;
  constructor(result: CheckResult) {
    super(result.message);
    carryResult(this, result);
  }
}

/**
 * @internal Gives a failure its result as a property that is not enumerable: an uncaught failure
 * then prints its diagram and stack, where Node would print the result's fields too (a hundred lines
 * of inputs' internals for a diagram of fifteen).
 */
export function carryResult(failure: Error, result: object): void {
  Object.defineProperty(failure, 'result', { value: result, enumerable: false, configurable: true });
}

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
}

/** @internal The counterexample of a failed case. */
export function counterexampleOf(t: Trial): Counterexample {
  const { failed: _, replay: __, ...counterexample } = t;
  return counterexample;
}

/** @internal */
export function comparisons(compare: CheckOptions['compare'], arity: number): ((a: Demand, p: Demand) => boolean)[] {
  const pick = (c: Comparison) => {
    if (typeof c === 'function') return c;
    // The checker's own demands: compared without checking that they are demands.
    if (c === 'exact') return equalDemands;
    if (c === 'noStricter') return definedBelow;
    if (c === 'noLazier') return (a: Demand, p: Demand) => definedBelow(p, a);
    throw new RangeError(`compare must be 'exact', 'noStricter', 'noLazier' or a function (or an array of one per argument), got ${showOption(c)}`);
  };
  const given = compare ?? 'exact';
  if (!Array.isArray(given)) {
    const one = pick(given as Comparison); // checked even for a spec of no arguments
    return Array.from({ length: arity }, () => one);
  }
  if (given.length !== arity) throw new TypeError(`compare: ${given.length} comparisons given for ${arity} arguments`);
  return given.map(pick);
}

/**
 * @internal Throws a RangeError naming option `name` unless `value` is undefined (not given) or
 * an integer from `min` to `max`, or Infinity when `max` is (a limit that means none): a NaN or a
 * negative count would otherwise run nothing and pass.
 */
export function checkInteger(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (value === undefined || (value === Infinity && max === Infinity) || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max)) return;
  const integer = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : 'an integer';
  const what = max === Infinity ? `${integer} or Infinity (no limit)` : max !== Number.MAX_SAFE_INTEGER ? `an integer from ${min} to ${max}` : integer;
  throw new RangeError(`${name} must be ${what}, got ${showOption(value)}`);
}

/**
 * Observes one case and compares it with the spec. Spec errors and shape mismatches propagate.
 * The spec gets a budget of its own, as large as the function's: it is user code that can walk
 * an infinite input for ever as well (running out is a spec error). `phase` is told who runs: the
 * function (with the context), then the spec (with the comparison), so that a worker's timeout
 * blames the right one.
 */
export function runCase(s: AnySpec, fn: Fn, inputs: readonly unknown[], context: Context, forceBudget: number, compare: ((a: Demand, p: Demand) => boolean)[], phase?: (who: 'function' | 'spec') => void): Trial {
  const budget = trialBudget(forceBudget, inputs);
  phase?.('function');
  const obs = observeWithin(budget, () => observeDetailed(context, fn, inputs, { inputs: s.args, result: s.result, names: s.names }));
  phase?.('spec');
  return judge(s, inputs, context, obs, budget, compare);
}

/** @internal {@link runCase} of a function over async iterables or returning a Promise: observed asynchronously, its pulls of async iterables counted against the budget. */
export async function runCaseAsync(s: AnySpec, fn: Fn, inputs: readonly unknown[], context: Context, forceBudget: number, compare: ((a: Demand, p: Demand) => boolean)[]): Promise<Trial> {
  const budget = trialBudget(forceBudget, inputs);
  const obs = await observeDetailedAsync(context, fn, inputs, { inputs: s.args, result: s.result, names: s.names }, budget);
  return judge(s, inputs, context, obs, budget, compare);
}

/** A case observed, compared with the spec's prediction. */
function judge(s: AnySpec, inputs: readonly unknown[], context: Context, obs: DetailedObservation, budget: number, compare: ((a: Demand, p: Demand) => boolean)[]): Trial {
  // Tested only for an error: `undefined instanceof` calls ShapeMismatchError's own Symbol.hasInstance (a call into the runtime) on every trial.
  if (obs.error !== undefined && obs.error.thrown instanceof ShapeMismatchError) throw obs.error.thrown;
  const predicted = obs.error ? [] : predictRefusingRevoked(budget, s, obs.result, inputs);
  if (obs.error) return { inputs, resultDemand: obs.result, actual: obs.inputs, predicted, failed: true, error: obs.error, replay: context };
  let failed = false;
  for (let i = 0; i < predicted.length && !failed; i++) failed = !compare[i]!(obs.inputs[i]!, predicted[i]!);
  return { inputs, resultDemand: obs.result, actual: obs.inputs, predicted, failed };
}

/** @internal A case for a check's steps (see {@link drive}) to run: its trial is sent back, or what running it threw is thrown in. */
export interface CaseRun {
  readonly inputs: readonly unknown[];
  readonly context: Context;
}

/** @internal The steps of a check, written once for both ways of running a case: each yields a case and gets its trial back. */
export type Steps<R> = Generator<CaseRun, R, Trial>;

/** @internal Runs `steps`, each case by `run`, synchronously. */
export function drive<R>(steps: Steps<R>, run: (c: CaseRun) => Trial): R {
  let step = steps.next();
  while (!step.done) {
    let t: Trial;
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

/** @internal Runs `steps`, each case by `run`, awaiting it. */
export async function driveAsync<R>(steps: Steps<R>, run: (c: CaseRun) => Promise<Trial>): Promise<R> {
  let step = steps.next();
  while (!step.done) {
    let t: Trial;
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
function predictRefusingRevoked(budget: number, s: AnySpec, resultDemand: Demand, inputs: readonly unknown[]): Demand[] {
  try {
    return predictWithin(budget, s, resultDemand, inputs);
  } catch (err) {
    throw findRevoked(inputs, s.args.map((_, i) => argumentName(s.names, i))) ?? err;
  }
}

/**
 * An observation under a force budget: a function that ran out of it diverged, even if it caught
 * the error and returned (then {@link withForceBudget} throws on return), with the demands recorded.
 */
function observeWithin(budget: number, observation: () => DetailedObservation): DetailedObservation {
  let obs: DetailedObservation | undefined;
  try {
    return withForceBudget(budget, () => (obs = observation()));
  } catch (thrown) {
    if (obs === undefined || !(thrown instanceof ForceBudgetExceeded)) throw thrown;
    return { ...obs, error: { thrown } };
  }
}

/** Forces per lazy position of a trial's inputs that the default force budget allows: a function linear in a large input is not divergent. */
const FORCES_PER_POSITION = 10;

/**
 * The force budget of a trial (the function's, and the spec's as large): the option `forceBudget`,
 * or with the default, {@link FORCES_PER_POSITION} forces per lazy position evaluated in the
 * inputs where that is more.
 */
function trialBudget(forceBudget: number, inputs: readonly unknown[]): number {
  if (forceBudget !== SCALED_BUDGET) return forceBudget;
  const base = DEFAULTS.forceBudget;
  return Math.max(base, FORCES_PER_POSITION * evaluatedPositions(inputs, base / FORCES_PER_POSITION));
}

/**
 * @internal The force budget of a run whose options give none: the default, scaled per trial by
 * {@link trialBudget}. A value no budget given can have, so that a `forceBudget` given as
 * 1,000,000 is that many forces, not the default scaled.
 */
export const SCALED_BUDGET = -1;

/** @internal The defaults of {@link CheckOptions}, for every entry point that takes them. */
export const DEFAULTS = { trials: 100, maxSize: 30, forceBudget: 1_000_000, maxShrinkAttempts: 2000, timeout: 10_000 } as const;

/**
 * @internal The settings every entry point reads off its options alike: the force budget, the
 * comparison per argument, and whether diagrams use Unicode; first, every numeric option given is
 * checked, so that a bad one fails before any run.
 */
export function commonSettings(spec: AnySpec, fn: Fn, options: CheckOptions, known: readonly string[]): { budget: number; compare: ((a: Demand, p: Demand) => boolean)[]; unicode: boolean } {
  refuseInWorker(); // a check module that runs checks when imported, in a worker importing it
  checkKnownOptions(options, known);
  if (options.onTrial !== undefined && typeof options.onTrial !== 'function') throw new TypeError(`onTrial must be a function, got ${showOption(options.onTrial)}`);
  checkInteger('trials', options.trials, 1);
  checkInteger('seed', options.seed, -Number.MAX_SAFE_INTEGER);
  checkInteger('maxSize', options.maxSize, 0);
  checkInteger('forceBudget', options.forceBudget, 1, Infinity);
  checkInteger('maxShrinkAttempts', options.maxShrinkAttempts, 0, Infinity);
  checkCoverageOption(options.coverage, spec.args.length, spec.names);
  // The comparison is the options', else the one the spec and function were defined with (defineCheck).
  return { budget: options.forceBudget ?? SCALED_BUDGET, compare: comparisons(options.compare, spec.args.length), unicode: options.unicode ?? unicodeTerminal() };
}

/** @internal The options of each entry point, against which a misspelt one is refused (running through tsx checks no types). */
export const OPTION_NAMES = {
  check: ['trials', 'seed', 'maxSize', 'compare', 'forceBudget', 'maxShrinkAttempts', 'unicode', 'shard', 'onTrial', 'coverage', 'workers', 'timeout', 'shrinking', 'maxShrinkTimeouts'],
  property: ['compare', 'forceBudget', 'maxSize', 'unicode'],
  exhaustive: ['depth', 'prune', 'progress', 'onProgress', 'maxCases', 'timeLimit', 'workers', 'timeout', 'shard', 'compare', 'forceBudget', 'unicode', 'coverage'],
} as const;

/**
 * @internal Refuses the options that apply only with workers (`timeout`, …) in a run without
 * them, where they would do nothing: above all `timeout`, which cannot stop a trial in this thread.
 */
export function refuseWorkerOptions(options: object, names: readonly string[]): void {
  const given = names.find((n) => (options as Record<string, unknown>)[n] !== undefined);
  if (given === undefined) return;
  const timeout = given === 'timeout';
  throw new RangeError(
    `${given} applies only with workers${timeout ? ': a trial running in this thread cannot be stopped from outside it' : ''}. Add workers (a check made with defineCheck, see docs/parallel.md), or leave ${given} out${timeout ? ' (forceBudget stops a trial that forces without end)' : ''}`,
  );
}

/**
 * The size of trial `trial` of `trials`, the one place it is decided (workers and shards ask it
 * too): sizes cycle 0, 1, …, `maxSize`, 0, 1, … as in QuickCheck's `computeSize`, so that a
 * longer run tries large inputs as early as a short one (where growing once over the whole run
 * gave 1,000 trials 17 of size 0 first). A last cycle cut short by the end of the run is stretched
 * over 0 to `maxSize`, so that a run shorter than a cycle still reaches `maxSize` (and one trial
 * has it). QuickCheck's sizes stop at `maxSize - 1`; these reach `maxSize`.
 */
export function sizeOf(trial: number, trials: number, maxSize: number): number {
  const cycle = maxSize + 1;
  const step = trial % cycle;
  if (trial - step + cycle <= trials) return step;
  const last = trials % cycle; // the trials of the cut-short last cycle
  return last <= 1 ? maxSize : Math.round((step * maxSize) / (last - 1));
}

/** Trial `i` of a run with `seed`: its inputs and context (what workers and shards reproduce). */
export function trialCase(s: AnySpec, seed: number, i: number, size: number): { inputs: unknown[]; context: Context } {
  const r = runSeed(seed).variant(i).stream();
  const inputs = generateInputs(s.args as readonly Shape<unknown>[], r, size);
  return { inputs, context: randomContext(r.split(), size) };
}

/** The seed of the run last asked for, kept: every trial of a run starts from it (made anew, a quarter of a trial's seeding). */
let lastRun = { seed: NaN, run: Seed.ofRun(0) };

/** `Seed.ofRun(seed)`, made once for a run's trials. */
function runSeed(seed: number): Seed {
  if (lastRun.seed !== seed) lastRun = { seed, run: Seed.ofRun(seed) };
  return lastRun.run;
}

/** @internal A shrink candidate: inputs, and the demand on the result to force (or, after a throw, the context to run again: see {@link Trial.replay}). */
export type Candidate = Pick<Trial, 'inputs' | 'resultDemand' | 'replay'>;

/** @internal The context that runs a case again: the one it threw in (see {@link Trial.replay}), else one forcing its demand on the result. */
export function rerunContext(c: Candidate): Context {
  return c.replay ?? fitContext(c.resultDemand);
}

/** @internal The shrink candidates of a case, in the order shrinking tries them: inputs one at a time, then the demand on the result. */
export function* shrinkCandidates(s: AnySpec, t: Candidate, inputsOnly = false): Generator<Candidate> {
  for (let i = 0; i < t.inputs.length; i++) {
    for (const v of shrinkValue(t.inputs[i], s.args[i] as Shape<unknown>)) {
      const inputs = t.inputs.slice();
      inputs[i] = v;
      yield { inputs, resultDemand: t.resultDemand, replay: t.replay };
    }
  }
  if (!inputsOnly) for (const d of shrinkDemand(t.resultDemand)) yield { inputs: t.inputs, resultDemand: d };
}

/** Greedy shrinking to a local minimum: inputs one at a time, then the demand on the result. */
function* shrink(s: AnySpec, start: Trial, maxAttempts: number): Steps<[Trial, number]> {
  let current = start;
  let shrinks = 0;
  let attempts = 0;
  const candidates = (t: Trial) => shrinkCandidates(s, t);
  search: while (attempts < maxAttempts) {
    for (const c of candidates(current)) {
      if (++attempts > maxAttempts) break search;
      let t: Trial;
      try {
        t = yield { inputs: c.inputs, context: rerunContext(c) };
      } catch (err) {
        if (isCaseError(err)) continue;
        throw err;
      }
      if (failsAlike(t, current.error !== undefined) && !sameCase(t, current)) {
        current = t;
        shrinks++;
        continue search;
      }
    }
    break;
  }
  return [current, shrinks];
}

function describeError(thrown: unknown): string {
  if (thrown instanceof ForceBudgetExceeded) return `it forced more than ${thrown.budget} thunks: it probably diverges`;
  return describeSafely(thrown);
}

/**
 * @internal Whether `t`, the run of a shrink candidate, is a smaller counterexample of the kind it
 * shrinks: it fails, and it throws exactly if the counterexample did (`threw`).
 */
export function failsAlike(t: Trial, threw: boolean): boolean {
  return t.failed && (t.error !== undefined) === threw;
}

/**
 * @internal Whether `t`, the run of a shrink candidate of `from`, ran back to the same case: a
 * context forced what the candidate's demand left out (an iterable's element comes with its
 * pull), so the candidate is no smaller.
 */
export function sameCase(t: Trial, from: Trial): boolean {
  return t.inputs === from.inputs && demandEquals(t.resultDemand, from.resultDemand);
}

/**
 * @internal Input `i` of a case as a report shows it: bounded, so that a huge or infinite input
 * prints elided, and a part whose evaluation throws prints `⊥`: a report must not fail with the
 * error of a partial input (the function may have thrown it, or never forced it).
 */
export function showInput(s: AnySpec, v: unknown, i: number): string {
  // An input that does not fit its shape (the mismatch a message reports) shows as it is, and one
  // that cannot be read at all (a revoked Proxy) as util.inspect shows it.
  for (const shape of [s.args[i] as Shape<unknown>, lenient]) {
    try {
      return prettyDemand(valuePrefix(v, shape, 60, true, true), SHOWN);
    } catch {
      continue;
    }
  }
  return describeSafely(v, SHOWN.maxWidth);
}

/** Longest list a report prints in full. */
const MAX_ITEMS = 12;
/** How a report prints inputs and demands: lists of up to {@link MAX_ITEMS} items in full, lines of up to 100 characters. */
const SHOWN = { maxItems: MAX_ITEMS, maxWidth: 100 } as const;

/** @internal A demand as a report shows it (bounded). */
export function showDemand(d: Demand): string {
  return prettyDemand(d, SHOWN);
}

/**
 * @internal The actual and the predicted demand on an input as a report shows them side by side:
 * as {@link showDemand}, unless that prints two demands that differ alike (they differ in the
 * elided middle of a long list or of a long text). Then each list on the way to their first
 * difference is cut around it instead, and if the texts are still too long to show it, they are
 * printed in full width.
 */
export function showDemandPair(actual: Demand, predicted: Demand): [string, string] {
  const a = showDemand(actual);
  const p = showDemand(predicted);
  const path = a === p ? firstDifference(actual, predicted) : undefined;
  if (path === undefined) return [a, p];
  const [fa, fp] = [focus(actual, path), focus(predicted, path)];
  const [a2, p2] = [showDemand(fa), showDemand(fp)];
  if (a2 !== p2) return [a2, p2];
  return [prettyDemand(fa, { ...SHOWN, maxWidth: Infinity }), prettyDemand(fp, { ...SHOWN, maxWidth: Infinity })];
}

/**
 * The top layer of `d` alone, its fields unforced: two layers differ as {@link demandEquals}
 * compares them (forced or not, constructor, primitive, arity) exactly when theirs are unequal.
 */
function layerOf(d: Demand): Demand {
  return d.forced ? forcedNode(d.ctor, d.arity, d.value, d.lazy) : d;
}

/** The path (field indices from the root) to the first node where `a` and `b` differ, in preorder; `undefined` if they are equal. Iterative: a list may be long. */
function firstDifference(a: Demand, b: Demand): number[] | undefined {
  const path: number[] = [];
  const stack: [Demand, Demand, number, number][] = [[a, b, 0, -1]]; // the two nodes, their depth, their index in their parent
  while (stack.length > 0) {
    const [x, y, depth, index] = stack.pop()!;
    path.length = depth;
    if (depth > 0) path[depth - 1] = index;
    if (!demandEquals(layerOf(x), layerOf(y))) return path;
    if (!x.forced) continue;
    for (let i = x.arity - 1; i >= 0; i--) stack.push([x.field(i), (y as Forced).field(i), depth + 1, i]);
  }
  return undefined;
}

/** An item of a list that stands for `count` items left out, printed as `prettyDemand` prints those it leaves out. */
function leftOut(count: number): Forced {
  return new Forced({ name: `… (${count} more) …`, keys: [], style: 'atom', build: () => undefined }, [], undefined, false);
}

/**
 * `d` with every list that `path` goes through cut to at most {@link MAX_ITEMS} items around the
 * item the path goes on to (or its end): its first two and last two items, and the five around
 * it. Other parts are kept (printing elides them as usual). Iterative: the path may be long.
 */
function focus(d: Demand, path: readonly number[]): Demand {
  const rebuild: ((child: Demand) => Demand)[] = []; // from the root down, each node on the path given its rebuilt child
  let node = d;
  let k = 0;
  while (k < path.length && node.forced) {
    const here = node;
    if (here.ctor.style !== 'cons') {
      const i = path[k++]!;
      rebuild.push((child) => new Forced(here.ctor, here.fields.map((f, j) => (j === i ? child : f)), here.value, here.lazy));
      node = here.field(i);
      continue;
    }
    // A list: its cells, and cell j, which the path reaches by following tails (j = cells.length: the list's end).
    const cells: Forced[] = [];
    for (let c: Demand = here; c.forced && c.ctor.style === 'cons'; c = c.field(1)) cells.push(c);
    let j = 0;
    for (; j < cells.length && k < path.length && path[k] === 1; k++) j++;
    const end = cells[cells.length - 1]!.field(1);
    // The path goes on into the head of cell j, or to the list's end, or stops at cell j (the difference).
    const intoHead = j < cells.length && k < path.length;
    if (intoHead) k++;
    node = intoHead ? cells[j]!.field(0) : j < cells.length ? cells[j]! : end;
    const keep = Math.floor(MAX_ITEMS / 2);
    const cut = cells.length > MAX_ITEMS && j >= keep && j < cells.length - keep;
    // The items kept, as [index of a cell, or a count left out]; the one at j is the path's.
    const items: (number | Forced)[] = cut
      ? [0, 1, leftOut(j - 4), j - 2, j - 1, j, j + 1, j + 2, leftOut(cells.length - j - 5), cells.length - 2, cells.length - 1]
      : cells.map((_, i) => i);
    rebuild.push((child) => {
      let list = j < cells.length ? end : child;
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!;
        const cell = cells[typeof item === 'number' ? item : j]!;
        const head = typeof item !== 'number' ? item : item === j && intoHead ? child : cell.field(0);
        list = new Forced(cell.ctor, [head, list], cell.value, cell.lazy);
      }
      return list;
    });
  }
  let built = node;
  for (let i = rebuild.length - 1; i >= 0; i--) built = rebuild[i]!(built);
  return built;
}

/**
 * Calls `visit` with each function in the evaluated part of `value`, of shape `shape`, forcing
 * nothing, once each (a cyclic value is fine). Iterative, so that a long list is fine.
 */
function forEachFunction(value: unknown, shape: Shape<unknown>, visit: (f: unknown) => void): void {
  const seen = new Set<unknown>();
  const stack: [unknown, Shape<unknown>][] = [[value, shape]];
  walk: while (stack.length > 0) {
    let [v, s] = stack.pop()!;
    while (v instanceof Lazy) {
      if (!v.isEvaluated) continue walk;
      s = insideLazy(s, v, 'value');
      v = peek(v);
    }
    if (typeof v === 'function' || (typeof v === 'object' && v !== null)) {
      if (seen.has(v)) continue;
      seen.add(v);
    }
    if (typeof v === 'function') {
      visit(v);
      continue;
    }
    const layer = s.project(v, 'value');
    for (let i = layer.fields.length - 1; i >= 0; i--) stack.push([layer.fields[i], layer.shapes[i]!]);
  }
}

/** @internal Forgets the calls of every generated function in `inputs`, at any depth, so that a report shows only those of the next run. */
export function resetInputCalls(s: AnySpec, inputs: readonly unknown[]): void {
  inputs.forEach((v, i) => {
    const shape = s.args[i] as Shape<unknown>;
    if (mayHoldFunctions(shape)) forEachFunction(v, shape, resetCalls);
  });
}

/** Whether a value of a shape can hold a generated function: only then is it walked for one (a property runs this per case). */
const mayHoldFunctions = perShape((shape) => someShapeWithin(shape, (x) => x.kind === 'fn' || x.kind === 'dynamic' || x.arbitrary !== undefined));

/**
 * @internal The report of a failed case; `errorLabel` introduces its error, if it has one. A case
 * stopped in a worker (`stopped`: what happened) recorded no demands: they show as unknown, not
 * as `_`, which would say that nothing was evaluated.
 */
export function report(s: AnySpec, t: Trial, header: string, unicode: boolean, errorLabel = 'The function threw', stopped?: { readonly unknown: string; readonly what: string }): string {
  const unknown = stopped && `(unknown: ${stopped.unknown})`;
  const pairs = t.error ? undefined : t.actual.map((d, i) => showDemandPair(d, t.predicted[i]!));
  const parts = {
    inputs: t.inputs.map((v, i) => showInput(s, v, i)),
    resultDemand: unknown ?? showDemand(t.resultDemand),
    actual: pairs ? pairs.map(([a]) => a) : t.actual.map((d) => unknown ?? showDemand(d)),
    predicted: pairs ? pairs.map(([, p]) => p) : t.actual.map(() => `(not asked: ${stopped?.what ?? 'the function threw'})`),
    predictor: s.predictor,
  };
  const lines = [header, drawDiagram(parts, unicode)];
  if (t.error) lines.push(`${errorLabel}: ${describeError(t.error.thrown)}`);
  if (t.error?.hint !== undefined) lines.push(t.error.hint);
  return lines.join('\n');
}

/**
 * @internal Checks a spec against a function over random inputs and contexts, in this thread, and
 * returns what it found, without throwing for a failure (a spec error and a shape mismatch still
 * throw). The public forms are `checkSpec` and `assertSpec`, which run it with workers in src/parallel.
 */
export function randomCheck<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: CheckOptions = {}): CheckResult {
  const spec = s as unknown as AnySpec;
  refuseAsync(spec);
  checkArity(spec, fn as Fn);
  const { steps, budget, compare } = randomSetup(spec, fn as Fn, options);
  return drive(steps, (c) => runCase(spec, fn as Fn, c.inputs, c.context, budget, compare));
}

/**
 * @internal {@link randomCheck} of a function over async iterables, or an async function: each
 * case is observed asynchronously (see `observeDetailedAsync`), one after the other; the result
 * is a promise.
 */
export async function strictCheckAsync(s: AnySpec, fn: Fn, options: CheckOptions = {}): Promise<CheckResult> {
  checkArity(s, fn, true);
  const { steps, budget, compare } = randomSetup(s, fn, options);
  return driveAsync(steps, (c) => runCaseAsync(s, fn, c.inputs, c.context, budget, compare));
}

/** Refuses, for a synchronous check, a spec whose shapes are async, saying what to use (an async function is refused by checkArity). */
function refuseAsync(spec: AnySpec): void {
  const asyncShape = [...spec.args, spec.result].find((shape) => someShapeWithin(shape as Shape<unknown>, (x) => x.protocol?.async === true));
  if (asyncShape === undefined) return;
  throw new TypeError(`the spec's shape ${(asyncShape as Shape<unknown>).name} is async: its check is asynchronous. Use checkSpecAsync or assertSpecAsync, which return a promise (docs/iterators.md)`);
}

/** The steps of a random check and the settings its cases run with. */
function randomSetup(spec: AnySpec, fn: Fn, options: CheckOptions): { steps: Steps<CheckResult>; budget: number; compare: ((a: Demand, p: Demand) => boolean)[] } {
  const settings = commonSettings(spec, fn, options, OPTION_NAMES.check);
  refuseWorkerOptions(options, ['timeout', 'shrinking', 'maxShrinkTimeouts']);
  return { steps: randomSteps(spec, options, settings.unicode), ...settings };
}

function* randomSteps(spec: AnySpec, options: CheckOptions, unicode: boolean): Steps<CheckResult> {
  const trials = options.trials ?? DEFAULTS.trials;
  const maxSize = options.maxSize ?? DEFAULTS.maxSize;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const indices = shardIndices(trials, options.shard);
  const coverage = new CoverageTally(spec.args.length);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const size = sizeOf(i, trials, maxSize);
    let generated: ReturnType<typeof trialCase>;
    try {
      generated = trialCase(spec, seed, i, size);
    } catch (err) {
      throw new TypeError(`${isInstance(err, Error) ? (err as Error).message : describeSafely(err)} (${trialPlace(i, seed, options)})`, { cause: err });
    }
    const { inputs, context } = generated;
    let trial: Trial;
    try {
      trial = yield { inputs, context };
    } catch (err) {
      throw inTrial(err, spec, i, seed, options, inputs);
    }
    options.onTrial?.(i);
    if (!trial.failed) {
      coverage.add(trial.resultDemand, trial.actual);
      continue;
    }
    const [small, shrinks] = yield* shrink(spec, trial, options.maxShrinkAttempts ?? DEFAULTS.maxShrinkAttempts);
    return printable(yield* failureSteps(spec, small, k + 1, shrinks, seed, unicode, options));
  }
  return printable(withCoverage(passedResult(indices.length, seed, options.shard), coverage.figures(), options.coverage, spec.names, replayOptions(seed, options)));
}

/**
 * @internal Makes a check's result print through `console.log` as its fields, then its message
 * drawn on lines of its own (as one string, the diagram's lines showed as `'…\n' +` pieces).
 */
export function printable<R extends { readonly message: string }>(result: R): R {
  return Object.defineProperty(result, inspect.custom, {
    value(this: R, _depth: number, options: InspectOptions) {
      // The coverage figures are in the message's line: shown again, they would spread over ten lines.
      const { message, coverage: _, ...fields } = this as R & { coverage?: unknown };
      let shown: string;
      try {
        shown = inspect(fields, options);
      } catch {
        // What was thrown cannot be inspected (a getter of its message throws): the message names it safely.
        const { counterexample: _, ...rest } = fields as { counterexample?: unknown };
        shown = inspect({ ...rest, counterexample: '(in the message below)' }, options);
      }
      return `${shown}\n${message}`;
    },
  });
}

/** @internal The result of a passing run of `count` trials. */
export function passedResult(count: number, seed: number, shard: string | undefined): CheckResult {
  // A shard can hold no trial (more shards than trials): it passes, saying so.
  const where = shard === undefined ? '' : `, shard ${shard}${count === 0 ? ', which holds none of the run\'s trials' : ''}`;
  return { passed: true, trials: count, seed, shrinks: 0, message: `+++ OK, passed ${count} trial${count === 1 ? '' : 's'} (seed ${seed}${where}).` };
}

/** @internal The first line of a failure's report: what failed, and `where` (how it was found) in parentheses. */
export function failureHeader(t: Trial, where?: string, s?: AnySpec): string {
  const what = !t.error ? (s?.predictor ? `the function's demands differ from the ${s.predictor.toLowerCase()}'s` : 'the spec does not match the function') : t.error.thrown instanceof ForceBudgetExceeded ? 'the function probably diverges' : 'the function threw';
  return where === undefined ? `Failed: ${what}` : `Failed: ${what} (${where})`;
}

/**
 * The options that run the same trials again, as (key, value as written) pairs: the seed, and what
 * else decides a trial's case (the number of trials and the largest size set its size) or which
 * trials run.
 */
function replayPairs(first: [string, string], options: CheckOptions): [string, string][] {
  const { trials, maxSize, forceBudget, compare, shard } = options;
  const pairs: [string, string][] = [first];
  if (trials !== undefined && trials !== DEFAULTS.trials) pairs.push(['trials', String(trials)]);
  if (maxSize !== undefined && maxSize !== DEFAULTS.maxSize) pairs.push(['maxSize', String(maxSize)]);
  // What decides whether a trial fails: a comparison given as a function cannot be written here.
  if (forceBudget !== undefined && forceBudget !== DEFAULTS.forceBudget) pairs.push(['forceBudget', String(forceBudget)]);
  const named = [compare ?? 'exact'].flat();
  if (named.every((c) => typeof c === 'string') && named.some((c) => c !== 'exact')) pairs.push(['compare', JSON.stringify(compare).replaceAll('"', "'")]);
  if (shard !== undefined) pairs.push(['shard', `'${shard}'`]);
  return pairs;
}

/**
 * @internal A spec error or a shape mismatch of trial `i` (whose inputs were `inputs`), naming the
 * trial, the options that run it again and its inputs: the user's own mistake, thrown, not a failure.
 */
export function inTrial(err: unknown, spec: AnySpec, i: number, seed: number, options: CheckOptions, inputs: readonly unknown[]): unknown {
  return blameCase(err, spec, () => trialPlace(i, seed, options), inputs);
}

/** Where trial `i` of a run is, as a message names it: its number and the options that run it again. */
function trialPlace(i: number, seed: number, options: CheckOptions): string {
  return `trial ${i + 1}, ${replayPairs(['seed', String(seed)], options).map(([k, v]) => `${k} ${v}`).join(', ')}`;
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
  if (isCaseError(err)) err.message = `${err.message} (${where()}, inputs ${inputs.map((v, j) => showInput(spec, v, j)).join(', ')})`;
  return err;
}

/** @internal The options that run the same trials again, as an object literal: `{ seed: 7, trials: 500 }`. */
export function replayOptions(seed: number, options: CheckOptions): string {
  return replayWith(['seed', String(seed)], options);
}

/** @internal The options that run a failure again: `first` (the seed of a random run, the depth of an exhaustive one), then those of `options` that decide it. */
export function replayWith(first: [string, string], options: CheckOptions): string {
  return `{ ${replayPairs(first, options).map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
}

/** @internal The result of a failure after `count` trials, shrunk to `small` in `shrinks` steps. */
export function failureResult(spec: AnySpec, fn: Fn, small: Trial, count: number, shrinks: number, seed: number, budget: number, compare: ((a: Demand, p: Demand) => boolean)[], unicode: boolean, options: CheckOptions): CheckResult {
  return drive(failureSteps(spec, small, count, shrinks, seed, unicode, options), (c) => runCase(spec, fn, c.inputs, c.context, budget, compare));
}

function* failureSteps(spec: AnySpec, small: Trial, count: number, shrinks: number, seed: number, unicode: boolean, options: CheckOptions): Steps<CheckResult> {
  // Run the minimal case once more so that generated functions, at any depth of the inputs, describe the calls of this run only.
  resetInputCalls(spec, small.inputs);
  const final: Trial = yield { inputs: small.inputs, context: rerunContext(small) };
  const shown = final.failed ? final : small;
  const header = failureHeader(shown, `after ${count} trial${count === 1 ? '' : 's'} and ${shrinks} shrink${shrinks === 1 ? '' : 's'}; seed ${seed}`, spec);
  const message = `${report(spec, shown, header, unicode)}\nReproduce with the option ${replayOptions(seed, options)}.`;
  return { passed: false, trials: count, seed, shrinks, counterexample: counterexampleOf(shown), message };
}

safeInstanceof(StrictCheckFailure);
// A run's tally lives only while the run does.
keepHiddenClasses(new CoverageTally(1));
