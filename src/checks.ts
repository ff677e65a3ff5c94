/**
 * The checks users call, named as fast-check's `assert` and `check`: each mode, random or
 * exhaustive, in this thread or with workers, has a form that throws on a counterexample
 * (`assertSpec`, `assertSpecExhaustive`, and the paper's `strictCheckSpecExact`) and one that
 * returns the result (`checkSpec`, `checkSpecExhaustive`). Here the global configuration fills in
 * what a call does not give, and the choice between running in this thread and with workers is
 * made.
 * @module
 */
import type { CheckOptions } from './spec/options.ts';
import { randomCheck } from './spec/random.ts';
import { StrictCheckFailure, type CheckResult } from './spec/result.ts';
import type { AnySpec, Fn } from './spec/run-case.ts';
import { exhaustiveCheck, ExhaustiveCheckFailure, type ExhaustiveOptions, type ExhaustiveResult } from './spec/exhaustive.ts';
import { nameOf, type Spec } from './spec/spec.ts';
import { registeredCheck, type DefinedCheck } from './spec/registry.ts';
import { resolveSettings, type OptionsOf, type ParallelOptions, type Settings } from './spec/options.ts';
import { runChecked, type ParallelCheckResult } from './parallel/random.ts';
import { parallelCheck, type ParallelExhaustiveResult } from './parallel/exhaustive.ts';
import { globalDefaults } from './config.ts';
import { holdingRejections } from './spec/unhandled-rejections.ts';
import { watchingCases } from './spec/stall-watch.ts';
import { writtenCompare } from './spec/replay.ts';
import { promiseOf } from './spec/promise-of.ts';

/** A check's arguments, read: its spec and function (a {@link DefinedCheck}'s, given one: `check`), and its options (`{}` where none are given). */
interface CheckArguments {
  readonly check?: DefinedCheck<readonly unknown[], unknown> | undefined;
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly options: object;
}

/** Reads the arguments of a call of a check, `(spec, fn, options?)` or `(check, options?)`: the one place that tells them apart. */
function readArguments(first: object, second: unknown, third: unknown): CheckArguments {
  if ('moduleUrl' in first && 'fn' in first && 'spec' in first) {
    const check = first as DefinedCheck<readonly unknown[], unknown>;
    return { check, spec: check.spec as unknown as AnySpec, fn: check.fn as Fn, options: (second ?? {}) as object };
  }
  return { spec: first as AnySpec, fn: second as Fn, options: (third ?? {}) as object };
}

/** @internal How the checks of a mode run: in this thread, or with workers a defined check. */
export interface Runners<M extends 'random' | 'exhaustive', R> {
  readonly mode: M;
  /** Whether its checks are asynchronous (each returns a promise, and its function may be async). */
  readonly async: boolean;
  inThread(spec: AnySpec, fn: Fn, settings: Settings<M>): R | Promise<R>;
  withWorkers(check: DefinedCheck<readonly unknown[], unknown>, settings: Settings<M>): Promise<R>;
}

const RANDOM: Runners<'random', CheckResult> = { mode: 'random', async: false, inThread: randomCheck, withWorkers: (check, settings) => runChecked(check, settings) };
const EXHAUSTIVE: Runners<'exhaustive', ExhaustiveResult> = { mode: 'exhaustive', async: false, inThread: exhaustiveCheck, withWorkers: parallelCheck };

/**
 * @internal The one dispatch of the checks (`what` names the one called): the call's options are
 * resolved (see resolveSettings), and the run is made in this thread or with workers. A defined
 * check, a check with workers or an asynchronous one returns a promise, which a bad option
 * rejects; any other returns its result, or throws.
 */
export function dispatch<M extends 'random' | 'exhaustive', R>(runners: Runners<M, R>, what: string, first: object, second: unknown, third: unknown): R | Promise<R> {
  const { check, spec, fn, options: given } = readArguments(first, second, third);
  const options = given as OptionsOf[M];
  const name = `${what} of ${nameOf(fn)}`;
  const run = () => {
    // A defined check's own comparison and the global workers apply: see resolveSettings.
    const settings = resolveSettings(runners.mode, options, { spec, check, global: globalDefaults() });
    // Its cases watched: one that never ends blocks this thread, and a watchdog thread warns (see stall-watch.ts).
    if ((settings as { readonly workers?: number }).workers === undefined) return watchingCases(name, runners.async, (settings as { readonly stallWarning?: number }).stallWarning!, () => runners.inThread(spec, fn, settings));
    // The check itself with workers: another check of the same spec and function is another module's; one never defined is refused.
    return runners.withWorkers(check ?? registeredCheck(spec, fn, what, runners.mode, runners.async), settings);
  };
  // An asynchronous run holds this thread's rejections left unhandled, which fail the case that left them (see unhandled-rejections.ts).
  if (runners.async) return holdingRejections(name, run);
  return check || options.workers !== undefined ? promiseOf(run) : run();
}

/**
 * Checks `fn` against `spec` on random trials and returns what it found, a counterexample
 * included; it throws only for a mistake in the check itself (a spec error, a value that does not
 * fit its shape, a bad option). Options the call does not give come from {@link configureGlobal}.
 * With `workers`, or given a {@link DefinedCheck}, it returns a promise of the result.
 * {@link assertSpec} throws on a counterexample instead: use that one in a test.
 *
 * @example
 * ```ts
 * const ok = checkSpec(takeSpec, take, { trials: 500, seed: 1 });
 * ok.passed; // true
 * const bad = checkSpec(takeSpec, takePrime, { seed: 1 });
 * bad.passed;  // false
 * bad.message; // 'Failed: the spec does not match the function (after 1 trial and 0 shrinks; seed 1)', then the diagram
 * ```
 */
export function checkSpec<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options?: CheckOptions & { readonly workers?: undefined }): CheckResult;
export function checkSpec<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ParallelOptions & { readonly workers: number | 'all' }): Promise<ParallelCheckResult>;
export function checkSpec<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ParallelOptions & { readonly workers: number | 'all' }): Promise<ParallelCheckResult>;
export function checkSpec<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options?: ParallelOptions): Promise<CheckResult>;
export function checkSpec(first: object, second?: unknown, third?: unknown): CheckResult | Promise<CheckResult> {
  return dispatch(RANDOM, 'checkSpec', first, second, third);
}

/**
 * Checks `fn` against `spec` on random trials: returns if every trial agrees with the spec (or as
 * `compare` says), and throws a {@link StrictCheckFailure} whose message is the shrunk
 * counterexample's diagram and the options that run it again. The form for tests; with `workers`,
 * or given a {@link DefinedCheck}, it returns a promise that resolves or rejects the same way.
 *
 * @example
 * ```ts
 * test('take meets its spec', () => assertSpec(takeSpec, take));
 * test('take evaluates no more than its spec says', () => assertSpec(takeSpec, take, { compare: 'noStricter', trials: 1000 }));
 * ```
 */
export function assertSpec<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options?: CheckOptions & { readonly workers?: undefined }): void;
export function assertSpec<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ParallelOptions & { readonly workers: number | 'all' }): Promise<void>;
export function assertSpec<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options?: ParallelOptions): Promise<void>;
export function assertSpec(first: object, second?: unknown, third?: unknown): void | Promise<void> {
  return assertAs('assertSpec', first, second, third);
}

/** @internal {@link assertSpec} as `what` calls it: named so in what the run says (a warning, a refusal). */
export function assertAs(what: string, first: object, second?: unknown, third?: unknown): void | Promise<void> {
  return passing(dispatch(RANDOM, what, first, second, third), randomFailure);
}

/**
 * The paper's `strictCheckSpecExact`: {@link assertSpec} with the exact comparison, which is what
 * the paper's name says; a `compare` option is refused (use {@link assertSpec} for another), and so
 * is a {@link DefinedCheck} whose own comparison is not exact (`assertSpec(check)` runs it as its
 * comparison says). A defined check, or `workers`, makes it return a promise.
 *
 * @example
 * ```ts
 * test('take meets its spec', () => strictCheckSpecExact(takeSpec, take));
 * test('take meets its spec, in 2 threads', () => strictCheckSpecExact(takeCheck, { workers: 2 }));
 * ```
 */
export function strictCheckSpecExact<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options?: Omit<CheckOptions, 'compare'> & { readonly workers?: undefined }): void;
export function strictCheckSpecExact<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: Omit<ParallelOptions, 'compare'> & { readonly workers: number | 'all' }): Promise<void>;
export function strictCheckSpecExact<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options?: Omit<ParallelOptions, 'compare'>): Promise<void>;
export function strictCheckSpecExact(first: object, second?: unknown, third?: unknown): void | Promise<void> {
  const { check, options } = readArguments(first, second, third) as CheckArguments & { readonly options: ParallelOptions };
  const exact = () => {
    if (options.compare !== undefined) {
      throw new TypeError("strictCheckSpecExact compares exactly, as the paper's check does: for another comparison, call assertSpec(spec, fn, { compare })");
    }
    const own = check?.compare === undefined ? undefined : writtenCompare(check.compare);
    if (own !== undefined) {
      throw new TypeError(
        `strictCheckSpecExact compares exactly, as the paper's check does, but the check '${check!.name}' was defined with the comparison ${own}: ` +
          'run it as its comparison says with assertSpec(check, options), or define a check without one to compare it exactly',
      );
    }
    return check ? assertAs('strictCheckSpecExact', check, { ...options, compare: 'exact' }) : assertAs('strictCheckSpecExact', first, second, { ...options, compare: 'exact' });
  };
  return check ? promiseOf(exact) : exact();
}

/**
 * Checks `fn` against `spec` on every case up to `options.depth` (see {@link ExhaustiveOptions}),
 * smallest depth first, and returns what it found: the first, smallest counterexample, or how
 * many cases passed. With `workers`, returns a promise of the result; given a
 * {@link DefinedCheck}, always a promise. {@link assertSpecExhaustive} throws on a counterexample.
 *
 * @example
 * ```ts
 * checkSpecExhaustive(takeSpec, take, { depth: 5 }).message; // '+++ OK, passed all 30061 cases of depth 5 (33490 cases and 38940 runs over depths 0 to 5).'
 * ```
 */
export function checkSpecExhaustive<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers?: undefined }): ExhaustiveResult;
export function checkSpecExhaustive<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<ParallelExhaustiveResult>;
export function checkSpecExhaustive<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<ParallelExhaustiveResult>;
export function checkSpecExhaustive<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions): Promise<ExhaustiveResult>;
export function checkSpecExhaustive(first: object, second: unknown, third?: unknown): ExhaustiveResult | Promise<ExhaustiveResult> {
  return dispatch(EXHAUSTIVE, 'checkSpecExhaustive', first, second, third);
}

/**
 * Checks `fn` against `spec` on every case up to `options.depth`: returns when all pass, and throws an {@link ExhaustiveCheckFailure} whose message is the first,
 * smallest counterexample's diagram otherwise. With `workers`, or given a {@link DefinedCheck},
 * it returns a promise that resolves or rejects the same way.
 *
 * @example
 * ```ts
 * test('take, exhaustively', () => assertSpecExhaustive(takeSpec, take, { depth: 6 }));
 * test('take, exhaustively, in 2 threads', () => assertSpecExhaustive(takeCheck, { depth: 7, workers: 2 }));
 * ```
 */
export function assertSpecExhaustive<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers?: undefined }): void;
export function assertSpecExhaustive<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<void>;
export function assertSpecExhaustive<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions): Promise<void>;
export function assertSpecExhaustive(first: object, second: unknown, third?: unknown): void | Promise<void> {
  return passing(dispatch(EXHAUSTIVE, 'assertSpecExhaustive', first, second, third), (r) => exhaustiveFailure('assertSpecExhaustive', r));
}

/** @internal The error of a throwing random check that did not pass. */
export function randomFailure(r: CheckResult): StrictCheckFailure | undefined {
  return r.passed ? undefined : new StrictCheckFailure(r);
}

/**
 * @internal The error of a throwing exhaustive check (`what`) that did not pass; for one that passed
 * stopped by a budget, none, but a warning on standard error: a test that passes shows no result,
 * and would look as if every case up to the depth had been checked.
 */
export function exhaustiveFailure(what: string, r: ExhaustiveResult): ExhaustiveCheckFailure | undefined {
  if (!r.passed) return new ExhaustiveCheckFailure(r);
  if (r.stoppedBy !== undefined) process.stderr.write(`strictcheck: warning: ${what} was stopped by ${r.stoppedBy} and passed on the cases it checked: ${r.message}\n`);
  return undefined;
}

/** @internal Nothing once the result has passed: one that did not is thrown as `failure` makes it (if it makes one), now or when its promise resolves. */
export function passing<T extends { readonly passed: boolean }>(result: T | Promise<T>, failure: (r: T) => Error | undefined): void | Promise<void> {
  const passed = (r: T) => {
    const error = failure(r);
    if (error) throw error;
  };
  return result instanceof Promise ? result.then(passed) : passed(result);
}
