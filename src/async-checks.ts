/**
 * The asynchronous checks: {@link checkSpecAsync} and {@link assertSpecAsync} check a function
 * over async iterables (`asyncIterable(elem)`, `asyncIterator(elem)`), an `async function*`, or
 * an async function whose Promise is awaited. Their cases run one after the other, each observed
 * until the function's pending steps have run; each returns a promise. The synchronous checks
 * refuse such a spec or function, pointing here.
 * @module
 */
import type { CheckOptions } from './spec/options.ts';
import { strictCheckAsync } from './spec/random.ts';
import { StrictCheckFailure, type CheckResult } from './spec/result.ts';
import type { AnySpec, Fn } from './spec/run-case.ts';
import type { Spec } from './spec/spec.ts';
import { resolveSettings } from './spec/options.ts';
import { globalDefaults } from './config.ts';

/**
 * Checks `fn` against `spec` on random trials, asynchronously: as {@link checkSpec} does, for a
 * function over async iterables or returning a Promise (awaited before the context consumes the
 * result). The force budget counts the pulls of async iterables too, so a function that pulls
 * an infinite async source for ever is stopped and reported as probably divergent.
 *
 * @example
 * ```ts
 * import { takeAsync, takeAsyncSpec } from './examples/iterators/take-async.ts';
 * const r = await checkSpecAsync(takeAsyncSpec, takeAsync, { trials: 200, seed: 1 });
 * r.passed; // true
 * ```
 */
export async function checkSpecAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: CheckOptions = {}): Promise<CheckResult> {
  if ((options as { readonly workers?: unknown }).workers !== undefined) throw new RangeError('workers: an asynchronous check runs in this thread only (workers run synchronous checks)');
  const s = spec as unknown as AnySpec;
  return strictCheckAsync(s, fn as Fn, resolveSettings('random', options, { spec: s, global: globalDefaults() }));
}

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
export async function assertSpecAsync<const A extends readonly unknown[], R>(spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: CheckOptions = {}): Promise<void> {
  const result = await checkSpecAsync(spec, fn, options);
  if (!result.passed) throw new StrictCheckFailure(result);
}
