/**
 * Finite generated sources whose elements have a range of their own (digits, say): the option
 * `finite` of the iterable shapes makes them end, and an element shape given a fast-check
 * arbitrary with `withArbitrary` draws their elements. They fail as every generated source does:
 * at a pull (`iter [1, throw]`), or from a `return` that throws; some have no `return`. Where
 * any element will do, `iterable(number, { finite: true })` is all a spec needs.
 * @module
 */
import type fc from 'fast-check';
import type { Shape } from '../../src/demand/shape-types.ts';
import { withArbitrary } from '../../src/engine/fast-check-bridge.ts';
import { asyncIterable, iterable } from '../../src/iter/index.ts';

/** Finite sources of `elem`, their elements drawn from `elements`. */
export function finiteSources<T>(elements: fc.Arbitrary<T>, elem: Shape<T>): Shape<Iterable<T>> {
  return iterable(withArbitrary(elements, elem), { finite: true });
}

/** Finite async sources of `elem`, their elements drawn from `elements`, answering after random delays. */
export function finiteAsyncSources<T>(elements: fc.Arbitrary<T>, elem: Shape<T>): Shape<AsyncIterable<T>> {
  return asyncIterable(withArbitrary(elements, elem), { finite: true });
}
