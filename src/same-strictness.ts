/**
 * The checks of a function against a reference implementation, without a spec: the
 * `checkSpec`/`assertSpec` pair over {@link sameStrictnessAs}, and the asynchronous pair over
 * async iterables (`checkSameStrictnessAsync`/`assertSameStrictnessAsync`).
 * @module
 */
import { assertAs, checkSpec } from './checks.ts';
import { promiseOf } from './spec/promise-of.ts';
import { assertSpecAsync, checkSpecAsync } from './async-checks.ts';
import { refuseAsync } from './spec/spec.ts';
import { sameStrictnessAs } from './spec/reference.ts';
import type { CheckOptions } from './spec/options.ts';
import type { CheckResult } from './spec/result.ts';
import type { ShapesOf } from './spec/spec.ts';
import type { Shape } from './demand/shape-types.ts';

/**
 * Checks on random trials that `fn` forces exactly what `reference` forces (or, with
 * `compare: 'noStricter'`, no more; `'noLazier'`, no less), under the same demands on their
 * results; returns what it found, as {@link checkSpec} does. The counterexample's diagram shows
 * the reference's demands beside the function's. For an exhaustive run or workers, check against
 * the spec {@link sameStrictnessAs} makes.
 *
 * @example
 * ```ts
 * const shapes = [lazyOf(number), list(number)] as const;
 * checkSameStrictness(shapes, list(number), take, takePrime, { seed: 1 }).message; // "Failed: the function's demands differ from the reference's (after 1 trial and 0 shrinks; seed 1)", then the diagram
 * ```
 */
export function checkSameStrictness<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: NoInfer<(...args: A) => R>, fn: NoInfer<(...args: A) => R>, options?: CheckOptions): CheckResult {
  return checkSpec(synchronousSame(args, result, reference), fn, options as CheckOptions & { readonly workers?: undefined });
}

/**
 * {@link checkSameStrictness} for tests: returns if `fn` is as strict as `reference` on every
 * trial, and throws a `StrictCheckFailure` with the diagram otherwise.
 *
 * @example
 * ```ts
 * test('the fast take is exactly as lazy as take', () => assertSameStrictness([lazyOf(number), list(number)], list(number), take, take));
 * ```
 */
export function assertSameStrictness<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: NoInfer<(...args: A) => R>, fn: NoInfer<(...args: A) => R>, options?: CheckOptions): void {
  assertAs('assertSameStrictness', synchronousSame(args, result, reference), fn, options);
}

/** {@link sameStrictnessAs} for the synchronous checks: refused over async shapes, named by their asynchronous forms. */
function synchronousSame<A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: (...args: A) => R) {
  const same = sameStrictnessAs(args, result, reference); // refuses shapes that are none, before refuseAsync reads them
  refuseAsync(same, ASYNC_FORMS);
  return same;
}

/** What a same-strictness check over async shapes is to be called. */
const ASYNC_FORMS = 'checkSameStrictnessAsync or assertSameStrictnessAsync';

/**
 * {@link checkSameStrictness} over async iterables, or of functions that return a Promise: each
 * trial awaits the function, then the reference under the same demand on its result, as
 * {@link checkSpecAsync} checks a spec. The spec it checks against, {@link sameStrictnessAs}, is
 * the same, and `checkSpecAsync` takes it too (the exhaustive mode and workers).
 *
 * @example
 * ```ts
 * import { takeAsync } from './examples/iterators/take-async.ts';
 * const r = await checkSameStrictnessAsync([number, asyncIterable(number)], asyncIterable(number), takeAsync, takeAsync, { seed: 1 });
 * r.passed; // true
 * ```
 */
export function checkSameStrictnessAsync<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: NoInfer<(...args: A) => R | Promise<R>>, fn: NoInfer<(...args: A) => R | Promise<R>>, options?: CheckOptions): Promise<CheckResult> {
  return promiseOf(() => checkSpecAsync(sameStrictnessAs(args, result, reference), fn, options as CheckOptions & { readonly workers?: undefined }));
}

/**
 * {@link checkSameStrictnessAsync} for tests: resolves if `fn` is as strict as `reference` on
 * every trial, and rejects with a `StrictCheckFailure` holding the diagram otherwise.
 *
 * @example
 * ```ts
 * import { takeAsync } from './examples/iterators/take-async.ts';
 * test('takeAsync is as lazy as itself', () => assertSameStrictnessAsync([number, asyncIterable(number)], asyncIterable(number), takeAsync, takeAsync));
 * ```
 */
export function assertSameStrictnessAsync<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: NoInfer<(...args: A) => R | Promise<R>>, fn: NoInfer<(...args: A) => R | Promise<R>>, options?: CheckOptions): Promise<void> {
  return promiseOf(() => assertSpecAsync(sameStrictnessAs(args, result, reference), fn, options as CheckOptions & { readonly workers?: undefined }));
}
