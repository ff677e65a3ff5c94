/**
 * Shrinking a failing case: its candidates (its inputs one at a time, then the demand on the
 * result), and greedy shrinking to a local minimum.
 * @module
 */
import { demandEquals } from '../demand/demand.ts';
import type { Context } from '../demand/observe.ts';
import type { Shape } from '../demand/shape-types.ts';
import { fitContext } from '../engine/context.ts';
import type { CaseRun } from '../engine/steps.ts';
import { shrinkDemand, shrinkValue } from '../engine/shrink.ts';
import { type AnySpec, isCaseError, type Steps, type Trial } from './run-case.ts';

/**
 * @internal A shrink candidate: inputs, and the demand on the result to force (or, after a throw,
 * the context to run again: see {@link Trial.replay}), under the budget of the case it shrinks (see
 * {@link Trial.budget}): a smaller case made of what that case's run evaluated would get a larger one.
 */
export type Candidate = Pick<Trial, 'inputs' | 'resultDemand' | 'replay' | 'budget'>;

/** @internal The context that runs a case again: the one it threw in (see {@link Trial.replay}), else one forcing its demand on the result. */
export function rerunContext(c: Candidate): Context {
  return c.replay ?? fitContext(c.resultDemand);
}

/** @internal The run again of case `c` (on `inputs`, its own unless given): its context (see {@link rerunContext}) and budget. */
export function rerun(c: Candidate, inputs = c.inputs): CaseRun {
  return { inputs, context: rerunContext(c), budget: c.budget };
}

/** @internal The shrink candidates of a case, in the order shrinking tries them: inputs one at a time, then the demand on the result. */
export function* shrinkCandidates(s: AnySpec, t: Candidate, inputsOnly = false): Generator<Candidate> {
  for (let i = 0; i < t.inputs.length; i++) {
    for (const v of shrinkValue(t.inputs[i], s.args[i] as Shape<unknown>)) {
      const inputs = t.inputs.slice();
      inputs[i] = v;
      yield { inputs, resultDemand: t.resultDemand, replay: t.replay, budget: t.budget };
    }
  }
  if (!inputsOnly) for (const d of shrinkDemand(t.resultDemand)) yield { inputs: t.inputs, resultDemand: d, budget: t.budget };
}

/**
 * @internal Greedy shrinking to a local minimum: inputs one at a time, then the demand on the
 * result. A candidate's run is smaller where `fails` says (by default, where it fails alike: see
 * {@link failsAlike}) and it did not run back to the case it shrinks (see {@link sameCase}).
 */
export function* shrink(s: AnySpec, start: Trial, maxAttempts: number, fails = (t: Trial, current: Trial) => failsAlike(t, current.error !== undefined)): Steps<[Trial, number]> {
  let current = start;
  let shrinks = 0;
  let attempts = 0;
  const candidates = (t: Trial) => shrinkCandidates(s, t);
  search: while (attempts < maxAttempts) {
    for (const c of candidates(current)) {
      if (++attempts > maxAttempts) break search;
      let t: Trial;
      try {
        t = yield rerun(c);
      } catch (err) {
        if (isCaseError(err)) continue;
        throw err;
      }
      if (fails(t, current) && !sameCase(t, current)) {
        current = t;
        shrinks++;
        continue search;
      }
    }
    break;
  }
  return [current, shrinks];
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
