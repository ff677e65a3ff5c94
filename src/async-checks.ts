/**
 * The asynchronous checks: {@link checkSpecAsync} and {@link assertSpecAsync} check a function
 * over async iterables (`asyncIterable(elem)`, `asyncIterator(elem)`), an `async function*`, or
 * an async function whose Promise is awaited. Their cases run one after the other, each observed
 * until the function's pending steps have run; each returns a promise. With `workers`, each worker
 * awaits the trials of its stripe one after the other (docs/parallel.md). The exhaustive forms,
 * {@link checkSpecExhaustiveAsync} and {@link assertSpecExhaustiveAsync}, await every case up to a
 * depth. The synchronous checks refuse such a spec or function, pointing here.
 * @module
 */
import type { CheckOptions } from './spec/options.ts';
import { strictCheckAsync } from './spec/random.ts';
import { StrictCheckFailure, type CheckResult } from './spec/result.ts';
import type { Spec } from './spec/spec.ts';
import type { ParallelOptions } from './spec/options.ts';
import type { DefinedCheck } from './spec/registry.ts';
import { runChecked, type ParallelCheckResult } from './parallel/random.ts';
import { exhaustiveCheck, ExhaustiveCheckFailure, type ExhaustiveOptions, type ExhaustiveResult } from './spec/exhaustive.ts';
import { parallelCheck, type ParallelExhaustiveResult } from './parallel/exhaustive.ts';
import { dispatch, exhaustiveFailure, passing, randomFailure, type Runners } from './checks.ts';

/**
 * Checks `fn` against `spec` on random trials, asynchronously: as {@link checkSpec} does, for a
 * function over async iterables or returning a Promise (awaited before the context consumes the
 * result). The force budget counts the pulls of async iterables too, so a function that pulls
 * an infinite async source for ever is stopped and reported as probably divergent, and one whose
 * promise is pending when the event loop empties (nothing left can settle it) as never settling. With
 * `workers`, given a {@link DefinedCheck} or a spec and function registered with `defineCheck`,
 * the trials run in worker threads, with the verdict and counterexample of the run in this thread;
 * `timeout` then stops a trial that never settles.
 *
 * @example
 * ```ts
 * import { takeAsync, takeAsyncSpec } from './examples/iterators/take-async.ts';
 * const r = await checkSpecAsync(takeAsyncSpec, takeAsync, { trials: 200, seed: 1 });
 * r.passed; // true
 * ```
 */
export function checkSpecAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options?: CheckOptions & { readonly workers?: undefined }): Promise<CheckResult>;
export function checkSpecAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: ParallelOptions & { readonly workers: number | 'all' }): Promise<ParallelCheckResult>;
export function checkSpecAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ParallelOptions & { readonly workers: number | 'all' }): Promise<ParallelCheckResult>;
export function checkSpecAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options?: ParallelOptions): Promise<CheckResult>;
export function checkSpecAsync(first: object, second?: unknown, third?: unknown): Promise<CheckResult> {
  return dispatch(RANDOM_ASYNC, 'checkSpecAsync', first, second, third) as Promise<CheckResult>;
}

const RANDOM_ASYNC: Runners<'random', CheckResult> = { mode: 'random', async: true, inThread: strictCheckAsync, withWorkers: (check, settings) => runChecked(check, settings, true) };

/**
 * {@link checkSpecAsync} for tests: resolves if every trial agrees with the spec, and rejects with
 * a {@link StrictCheckFailure} holding the shrunk counterexample's diagram otherwise.
 *
 * @example
 * ```ts
 * import { takeAsync, takeAsyncSpec } from './examples/iterators/take-async.ts';
 * test('takeAsync meets its spec', () => assertSpecAsync(takeAsyncSpec, takeAsync));
 * ```
 */
export function assertSpecAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options?: ParallelOptions): Promise<void>;
export function assertSpecAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options?: ParallelOptions): Promise<void>;
export async function assertSpecAsync(first: object, second?: unknown, third?: unknown): Promise<void> {
  return passing(dispatch(RANDOM_ASYNC, 'assertSpecAsync', first, second, third), randomFailure);
}

/**
 * Checks `fn` against `spec` on every case up to `options.depth`, asynchronously: as
 * {@link checkSpecExhaustive} does, for a function over async iterables or returning a Promise.
 * Async sources are enumerated as sync ones are, and from depth 1 also with their pulls pending at
 * once settling swapped; the contexts pull an async result one or two pulls at a time, then leave
 * it, close it or throw into it (docs/iterators.md). Each case is awaited before the next starts.
 * With `workers`, given a {@link DefinedCheck} or a spec and function registered with
 * `defineCheck`, each worker awaits the cases of its subtrees, with the result of the run in this
 * thread.
 *
 * @example
 * ```ts
 * import { takeAsync, takeAsyncSpec } from './examples/iterators/take-async.ts';
 * const r = await checkSpecExhaustiveAsync(takeAsyncSpec, takeAsync, { depth: 3 });
 * r.passed; // true
 * ```
 */
export function checkSpecExhaustiveAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: ExhaustiveOptions & { readonly workers?: undefined }): Promise<ExhaustiveResult>;
export function checkSpecExhaustiveAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<ParallelExhaustiveResult>;
export function checkSpecExhaustiveAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<ParallelExhaustiveResult>;
export function checkSpecExhaustiveAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions): Promise<ExhaustiveResult>;
export function checkSpecExhaustiveAsync(first: object, second: unknown, third?: unknown): Promise<ExhaustiveResult> {
  return dispatch(EXHAUSTIVE_ASYNC, 'checkSpecExhaustiveAsync', first, second, third) as Promise<ExhaustiveResult>;
}

const EXHAUSTIVE_ASYNC: Runners<'exhaustive', ExhaustiveResult> = {
  mode: 'exhaustive',
  async: true,
  inThread: (spec, fn, settings) => exhaustiveCheck(spec, fn, settings, true),
  withWorkers: (check, settings) => parallelCheck(check, settings, true),
};

/**
 * {@link checkSpecExhaustiveAsync} for tests: resolves if every case up to the depth agrees with
 * the spec, and rejects with an {@link ExhaustiveCheckFailure} holding the first, smallest
 * counterexample's diagram otherwise.
 *
 * @example
 * ```ts
 * import { takeAsync, takeAsyncSpec } from './examples/iterators/take-async.ts';
 * test('takeAsync, exhaustively', () => assertSpecExhaustiveAsync(takeAsyncSpec, takeAsync, { depth: 3 }));
 * ```
 */
export function assertSpecExhaustiveAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: ExhaustiveOptions): Promise<void>;
export function assertSpecExhaustiveAsync<A extends readonly unknown[], R>(check: DefinedCheck<A, R>, options: ExhaustiveOptions): Promise<void>;
export async function assertSpecExhaustiveAsync(first: object, second: unknown, third?: unknown): Promise<void> {
  return passing(dispatch(EXHAUSTIVE_ASYNC, 'assertSpecExhaustiveAsync', first, second, third), (r) => exhaustiveFailure('assertSpecExhaustiveAsync', r));
}
