/**
 * The random mode in this thread: random inputs and contexts, observation, comparison, shrinking
 * of inputs *and* of the demand on the result, and the counterexample diagram.
 * @module
 */
import { describeSafely } from '../demand/describe.ts';
import { counted } from './counted.ts';
import { checkCall } from './spec.ts';
import { CoverageTally, withCoverage } from './coverage.ts';
import type { Settings } from './options.ts';
import { indicesOf, showShard } from './shard.ts';
import { isInstance } from '../lazy/thrown.ts';
import { inTrial, replayOptions, trialPlace } from './replay.ts';
import { failureReport, resetInputCalls } from './report.ts';
import { type CheckResult, printable } from './result.ts';
import { type AnySpec, caseRunner, counterexampleOf, drive, driveAsync, type Fn, runCase, runCaseAsync, type Steps, type Trial } from './run-case.ts';
import { rerun, shrink } from './shrink-case.ts';
import { sizeOf, trialCase } from './trial-case.ts';
import type { CaseRun } from '../engine/steps.ts';

/** @internal A random run: the spec and function checked, and the settings of its call. */
export interface RandomRun {
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly settings: Settings<'random'>;
}

/**
 * @internal Checks a spec against a function over random inputs and contexts, in this thread, and
 * returns what it found, without throwing for a failure (a spec error and a shape mismatch still
 * throw). The public forms are `checkSpec` and `assertSpec`, which run it with workers in src/parallel.
 */
export function randomCheck(spec: AnySpec, fn: Fn, settings: Settings<'random'>): CheckResult {
  checkCall(spec, fn);
  const run = { spec, fn, settings };
  const cases = caseRunner(spec, fn, settings);
  const one = (c: CaseRun) => runCase(cases, c);
  return drive(randomSteps(run, one), one);
}

/**
 * @internal {@link randomCheck} of a function over async iterables, or an async function: each
 * case is observed asynchronously (see `observeDetailedAsync`), one after the other; the result
 * is a promise.
 */
export async function strictCheckAsync(spec: AnySpec, fn: Fn, settings: Settings<'random'>): Promise<CheckResult> {
  checkCall(spec, fn, true);
  const run = { spec, fn, settings };
  const cases = caseRunner(spec, fn, settings);
  return driveAsync(randomSteps(run), (c) => runCaseAsync(cases, c));
}

/** The steps of a random run; with `now`, a synchronous check's, its trials run here, not yielded (a yield per trial cost 5% of a check of take), the steps of a failure yielded as ever. */
function* randomSteps(run: RandomRun, now?: (c: CaseRun) => Trial): Steps<CheckResult> {
  const { spec, settings } = run;
  // Read once: the settings' reads are megamorphic (see caseRunner).
  const { trials, maxSize, seed, onTrial } = settings;
  const indices = indicesOf(trials, settings.shard);
  const coverage = new CoverageTally(spec.args.length);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const size = sizeOf(i, trials, maxSize);
    let generated: ReturnType<typeof trialCase>;
    try {
      generated = trialCase(spec, seed, i, size);
    } catch (err) {
      throw new TypeError(`${isInstance(err, Error) ? (err as Error).message : describeSafely(err)} (${trialPlace(i, settings)})`, { cause: err });
    }
    let trial: Trial;
    try {
      trial = now !== undefined ? now(generated) : yield generated;
    } catch (err) {
      throw inTrial(err, spec, i, settings, generated.inputs);
    }
    onTrial?.call(settings, i);
    if (!trial.failed) {
      coverage.add(trial.resultDemand, trial.actual);
      continue;
    }
    const [small, shrinks] = yield* shrink(spec, trial, settings.maxShrinkAttempts);
    return printable(yield* failureSteps(run, small, k + 1, shrinks));
  }
  return printable(passedResult(run, indices.length, coverage));
}

/** @internal The result of `run` when its `count` trials passed: `coverage` holds how far they forced the result and each argument. */
export function passedResult({ spec, settings }: RandomRun, count: number, coverage: CoverageTally): CheckResult {
  const { seed, shard } = settings;
  // A shard can hold no trial (more shards than trials): it passes, saying so.
  const where = shard === undefined ? '' : `, shard ${showShard(shard)}${count === 0 ? ", which holds none of the run's trials" : ''}`;
  const passed = { passed: true, trials: count, seed, shrinks: 0, message: `+++ OK, passed ${counted(count, 'trial')} (seed ${seed}${where}).` };
  return withCoverage(passed, coverage.figures(), settings.coverage, spec.names, replayOptions(settings));
}

/** @internal Where a random run failed, as its report's first line says it: `after 3 trials and 2 shrinks; seed 42`. */
export function failedAfter(count: number, shrinks: number, seed: number): string {
  return `after ${counted(count, 'trial')} and ${counted(shrinks, 'shrink')}; seed ${seed}`;
}

/** @internal The steps that end a failure of `run` after `count` trials, shrunk to `small` in `shrinks` steps: its case run once more, and the result. */
export function* failureSteps({ spec, settings }: RandomRun, small: Trial, count: number, shrinks: number): Steps<CheckResult> {
  // Run the minimal case once more so that generated functions, at any depth of the inputs, describe the calls of this run only.
  resetInputCalls(spec, small.inputs);
  const final: Trial = yield rerun(small);
  const { seed } = settings;
  const where = failedAfter(count, shrinks, seed);
  const { shown, message } = failureReport(spec, small, final, where, `Reproduce with the option ${replayOptions(settings)}.`, settings.unicode);
  return { passed: false, trials: count, seed, shrinks, counterexample: counterexampleOf(shown), message };
}
