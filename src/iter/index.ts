/**
 * Iterables: shapes, demands in value form, and the generated sources (see `docs/iterators.md`).
 * @module
 */
export { iterable, iterator } from './shape.ts';
export { pulls, pullsOf, pullCount, endOf, closedAfter, iterations, untouched, IterEnd, Iterations, RETURNED, THROWN, THREW, type IterationEnd, type IterDemand } from './demand.ts';
export { Source, SourceError, type SourcePlan } from './source.ts';
