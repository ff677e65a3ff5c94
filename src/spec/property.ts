/**
 * fast-check integration: the cases of a strictness check as a fast-check arbitrary, and a
 * property checking a function against a spec on them, for fast-check's runner (`fc.assert`,
 * `fc.check`: its seeds, replay paths, timeouts and reporters) and the test-runner integrations
 * built on it. The cases are those of {@link checkSpec} (random inputs, a random context), and
 * fast-check shrinks them with strictcheck's shrinker: inputs, then the demand on the result.
 * @module
 */
import fc from 'fast-check';
import type { Demand } from '../demand/demand.ts';
import { toContext, type Context } from '../demand/observe.ts';
import { toDemand } from '../demand/convert.ts';
import type { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { CheckOptions } from './options.ts';
import { failureHeader, report, resetInputCalls, showDemand, showInputs } from './report.ts';
import { isCaseError, runCase, type AnySpec, type Fn, type Trial } from './run-case.ts';
import { failsAlike, rerunContext, sameCase, shrinkCandidates } from './shrink-case.ts';
import { trialCase } from './trial-case.ts';
import { checkCall, SpecError, type Spec } from './spec.ts';
import { resolveSettings, type Settings } from './options.ts';

/** One case of a check: inputs, and the context that evaluates the function's result. */
export interface StrictCase {
  /** The function's inputs. */
  readonly inputs: readonly unknown[];
  /** The context that evaluates the function's result. */
  readonly context: Context;
  /** For a case made by shrinking: the demand its context forces, and whether the failure it shrinks threw. */
  readonly shrunk?: {
    /** The demand the context forces on the result. */
    readonly demand: Demand;
    /** Whether the failure being shrunk threw: the case counts as failing only if it fails the same way. */
    readonly threw: boolean;
  };
}

/** What {@link strictCases} and {@link strictProperty} accept: the options of a check that apply to one case. */
export type StrictPropertyOptions = Pick<CheckOptions, 'compare' | 'forceBudget' | 'maxSize' | 'unicode'>;

/** A property's spec and function, and the settings of its options. */
interface Setup {
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly settings: Settings<'property'>;
}

function setup(s: AnySpec, fn: Fn, options: StrictPropertyOptions): Setup {
  checkCall(s, fn);
  return { spec: s, fn, settings: resolveSettings('property', options, { spec: s }) };
}

function run(set: Setup, c: StrictCase): Trial {
  const t = runCase(set, c);
  lastRun.set(c, t);
  return t;
}

/**
 * The last run of each case. fast-check shrinks a case right after its predicate has run it, and
 * the run is deterministic, so the shrinker takes that run instead of running the case again.
 * (A report runs its case again anyway: generated functions show the calls of that run.) Kept for
 * the module, by case, not by property: a case of strictCases is run by the predicate's own
 * assertStrictCase, and its shrinker then judges it by that run, under the predicate's options.
 */
const lastRun = new WeakMap<StrictCase, Trial>();

/**
 * The cases whose predicate failed with the spec's or the shapes' mistake, which are not shrunk:
 * they are no counterexample. Their shrinker cannot tell by running them again where the spec
 * changed them (see `spec-changes.ts`): run again, the changed case passes, and each of its
 * candidates, changed back by the spec, failed as a new case to shrink, for ever.
 */
const refused = new WeakSet<StrictCase>();

/**
 * A case, printed by fast-check as its inputs and, once shrunk, the demand on the result; a case
 * that fails prints strictcheck's diagram too (fast-check shows a property's error only with
 * `includeErrorInReport`, and test runners do not show its cause).
 */
function strictCase(set: Setup, inputs: readonly unknown[], context: Context, shrunk?: StrictCase['shrunk'], given?: Demand): StrictCase {
  const c: StrictCase = { inputs, context, ...(shrunk ? { shrunk } : {}) };
  const demand = shrunk?.demand ?? given;
  if (demand) madeWith.set(c, demand);
  const text = () => {
    let failure: string | undefined;
    try {
      failure = diagnose(set, c); // first: generated functions then show the calls of this run
    } catch (err) {
      if (!isCaseError(err)) throw err;
      return `${caseLine(set, c, err)}\n${err.name}: ${err.message}`;
    }
    // The demand of the run just made, not the one its context was built from (a candidate's parent's, before its inputs shrank).
    const line = caseLine(set, c, demand && (lastRun.get(c)?.resultDemand ?? demand));
    return failure === undefined ? line : `${line}\n${failure}`;
  };
  return Object.assign(c, { [fc.toStringMethod]: text, toString: text });
}

/**
 * The demand on the result that a case was made with (a shrunk case, an example), if any, which
 * names the case when its run fails. Kept for the module, by case, as {@link lastRun}: an example
 * made by strictExample is run by another property's setup.
 */
const madeWith = new WeakMap<StrictCase, Demand>();

/**
 * A case as fast-check prints it and errors name it: its inputs, and the demand on its result
 * (`shown`), or for a case that failed to run (`shown`: the error), the demand its spec failed on
 * or the case was made with.
 */
function caseLine(set: Setup, c: StrictCase, shown: Demand | SpecError | ShapeMismatchError | undefined): string {
  const demand = shown instanceof Error ? (shown instanceof SpecError ? shown.resultDemand : undefined) ?? madeWith.get(c) : shown;
  return `inputs ${showInputs(set.spec, c.inputs)}; ${demand ? `result demand ${showDemand(demand)}` : 'a random context'}`;
}

/** Why a case fails (its report), or `undefined` if it does not (a spec error propagates). */
function diagnose(set: Setup, c: StrictCase): string | undefined {
  // Generated functions describe the calls of this run only.
  resetInputCalls(set.spec, c.inputs);
  let t: Trial;
  try {
    t = run(set, c);
  } catch (err) {
    // As in strictcheck's own shrinking (see isCaseError).
    if (isCaseError(err) && c.shrunk) return undefined;
    throw err;
  }
  // Shrinking keeps the kind of failure: a case that threw shrinks to cases that throw.
  if (c.shrunk ? !failsAlike(t, c.shrunk.threw) : !t.failed) return undefined;
  return report(set.spec, t, failureHeader(t, undefined, set.spec), set.settings.unicode);
}

class StrictCases extends fc.Arbitrary<StrictCase> {
  constructor(private readonly set: Setup) {
    super();
  }

  generate(mrng: fc.Random): fc.Value<StrictCase> {
    const seed = mrng.nextInt(0, 2 ** 31 - 1);
    const { inputs, context } = trialCase(this.set.spec, seed, 0, mrng.nextInt(0, this.set.settings.maxSize));
    return new fc.Value(strictCase(this.set, inputs, context), undefined);
  }

  canShrinkWithoutContext(value: unknown): value is StrictCase {
    return false;
  }

  /**
   * strictcheck's candidates, in its order; they need the case's run (its demand on the result),
   * which the predicate has made. A case that passes the check fails some other property (of
   * {@link strictCases} combined with others): its smaller inputs, under its own context, are the
   * candidates, and none has to fail the check.
   */
  shrink(value: StrictCase): fc.Stream<fc.Value<StrictCase>> {
    const set = this.set;
    if (refused.has(value)) return fc.Stream.nil();
    let t = lastRun.get(value);
    try {
      t ??= run(set, value);
    } catch {
      return fc.Stream.nil();
    }
    if (!t.failed) return new fc.Stream(shrinkCandidates(set.spec, t, true)).map((c) => new fc.Value(strictCase(set, c.inputs, value.context), undefined));
    const threw = t.error !== undefined;
    const from = t;
    return new fc.Stream(shrinkCandidates(set.spec, t))
      .map((c) => strictCase(set, c.inputs, rerunContext(c), { demand: c.resultDemand, threw }))
      .filter((c) => !runsBack(set, c, from))
      .map((c) => new fc.Value(c, undefined));
  }
}

/**
 * Whether candidate `c`, a shrink of the case whose run is `from`, runs back to that case (see
 * {@link sameCase}): a context forces what the candidate's demand left out, as an iterable's
 * element comes with its pull. fast-check takes any failing shrink, so such a candidate would be
 * shrunk again as the case itself, for ever; strictcheck's own shrinking rejects it after its run.
 * Only a candidate on the same inputs (a smaller demand on the result) can; one that fails to run
 * is no case at all, and its predicate says so.
 */
function runsBack(set: Setup, c: StrictCase, from: Trial): boolean {
  if (c.inputs !== from.inputs) return false;
  try {
    return sameCase(run(set, c), from);
  } catch (err) {
    if (isCaseError(err)) return false;
    throw err;
  }
}

/**
 * The cases of checking `fn` against `spec` as a fast-check arbitrary: random inputs of the
 * spec's shapes and a random context, of a random size up to `maxSize`; shrunk by strictcheck's
 * shrinker (the inputs, then the demand on the result). Use it to combine strictness with other
 * properties in one fast-check run; {@link strictProperty} is the plain check.
 *
 * @example
 * ```ts
 * fc.assert(
 *   fc.property(strictCases(takeSpec, take), fc.nat(5), (c, k) => {
 *     // each case: the inputs and the context a check would run take on
 *     const [n, xs] = c.inputs as [Lazy<number>, List.List<number>];
 *     return List.toArray(List.take(k, xs)).length <= k;
 *   }),
 * );
 * ```
 */
export function strictCases<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: StrictPropertyOptions = {}): fc.Arbitrary<StrictCase> {
  return new StrictCases(setup(s as unknown as AnySpec, fn as Fn, options));
}

/**
 * A fast-check property: `fn` has exactly the strictness `spec` predicts (or as `compare` says)
 * on every case. A failing case throws an error whose message is strictcheck's diagram; fast-check
 * shrinks it with strictcheck's shrinker and reports it with its seed and path. Run it with
 * `fc.assert` (in any test runner) for fast-check's options: `seed`, `path`, `numRuns`, `timeout`,
 * `verbose`, reporters.
 *
 * @example
 * ```ts
 * test('take', () => fc.assert(strictProperty(takeSpec, take), { numRuns: 1000 }));
 * ```
 */
export function strictProperty<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: StrictPropertyOptions = {}): fc.IPropertyWithHooks<[StrictCase]> {
  const set = setup(s as unknown as AnySpec, fn as Fn, options);
  return fc.property(new StrictCases(set), (c) => assertCase(set, c));
}

/** Throws an error whose message is the diagram of case `c` if it fails. */
function assertCase(set: Setup, c: StrictCase): void {
  let failure: string | undefined;
  try {
    failure = diagnose(set, c);
  } catch (err) {
    // The spec's or the shapes' mistake, named by its case: fast-check shows the error, not always the case.
    if (isCaseError(err)) {
      err.message = `${err.message} (${caseLine(set, c, err)})`;
      refused.add(c);
    }
    throw err;
  }
  if (failure !== undefined) throw new Error(`strictness check failed:\n${failure}`);
}

/**
 * Checks one case, one of {@link strictCases} or a {@link strictExample}: returns if `fn` has the
 * strictness `spec` predicts on it (or as `compare` says), and throws an error whose message is
 * the case's diagram otherwise. For a strictness check inside a property of your own, in
 * `fc.property` or `@fast-check/vitest`'s `test.prop`.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(strictCases(takeSpec, take), (c) => assertStrictCase(takeSpec, take, c)));
 * // with @fast-check/vitest: test.prop([strictCases(takeSpec, take)])('take', (c) => assertStrictCase(takeSpec, take, c));
 * ```
 */
export function assertStrictCase<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, c: StrictCase, options: StrictPropertyOptions = {}): void {
  assertCase(setup(s as unknown as AnySpec, fn as Fn, options), c);
}

/**
 * A case with the inputs and the demand on the result you give (in value form, `thunk` where the
 * context evaluates nothing): for fast-check's `examples`, which run before the random cases,
 * or for {@link assertStrictCase}. It prints as strictcheck's cases do: its inputs, its result
 * demand, and its diagram if it fails.
 *
 * @example
 * ```ts
 * // the paper's counterexample of take', tried first
 * const example = strictExample(takeSpec, takePrime, [now(0), nil], nil);
 * fc.check(strictProperty(takeSpec, takePrime), { examples: [[example]] }).numRuns; // 1: the example failed first
 * ```
 */
export function strictExample<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, inputs: A, resultDemand: R, options: StrictPropertyOptions = {}): StrictCase {
  const set = setup(s as unknown as AnySpec, fn as Fn, options);
  const demand = toDemand(resultDemand, s.result);
  return strictCase(set, inputs, toContext(demand), undefined, demand);
}
