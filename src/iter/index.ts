/**
 * Iterables: shapes, demands in value form, and the generated sources (see `docs/iterators.md`).
 * @module
 */
export { iterable, iterator, asyncIterable, asyncIterator } from './shape.ts';
export { pulls, pullsOf, pullCount, endOf, closedAfter, thrownInto, iterations, untouched, taken, IterEnd, Iterations, RETURNED, THROWN, THREW, Ahead, aheadOf, readAhead, pulledElements, type IterationEnd, type IterDemand, type AnyIterDemand } from './demand.ts';
export { Source, SourceError, AsyncSource, type SourcePlan, type AsyncSourcePlan } from './source.ts';
export { sourcePrefix, type SourcePrefix } from './read.ts';
