/**
 * Finite generated sources, for functions that pull their source to its end (a sum, a search
 * that may find nothing), which the infinite sources of `iterable(elem)` would make diverge. They
 * fail as those do: at a pull (`iter [1, throw]`), or from a `return` that throws; some have no
 * `return`. fast-check generates and shrinks them (to no throw, a `return` that does not throw,
 * fewer and smaller elements).
 * @module
 */
import fc from 'fast-check';
import type { Shape } from '../../src/demand/shape-types.ts';
import { withArbitrary } from '../../src/engine/fast-check-bridge.ts';
import { asyncIterable, AsyncSource, iterable, Source, type SourcePlan } from '../../src/iter/index.ts';

/** The plans of finite sources of at most 8 elements drawn from `elements`. */
function finitePlans<T>(elements: fc.Arbitrary<T>): fc.Arbitrary<SourcePlan<T>> {
  return fc
    .record({ elements: fc.array(elements, { maxLength: 8 }), throwAt: fc.option(fc.nat(8), { nil: undefined }), closing: fc.constantFrom('return', 'return throws', 'none') })
    .map(({ elements, throwAt, closing }) => ({
      elements,
      infinite: false,
      throwAt: throwAt === undefined ? undefined : Math.min(throwAt, elements.length),
      hasReturn: closing !== 'none',
      returnThrows: closing === 'return throws',
    }));
}

/** Finite sources of `elem` (values drawn from `elements`), as an argument shape. */
export function finiteSources<T>(elements: fc.Arbitrary<T>, elem: Shape<T>): Shape<Iterable<T>> {
  return withArbitrary(finitePlans(elements).map((plan) => new Source(plan) as Iterable<T>), iterable(elem));
}

/** Finite async sources of `elem`, answering after random delays. */
export function finiteAsyncSources<T>(elements: fc.Arbitrary<T>, elem: Shape<T>): Shape<AsyncIterable<T>> {
  const delays = fc.array(fc.nat(3), { maxLength: 3 });
  return withArbitrary(fc.tuple(finitePlans(elements), delays).map(([plan, d]) => new AsyncSource({ ...plan, delays: d }) as AsyncIterable<T>), asyncIterable(elem));
}
