/**
 * Generation: random inputs from shapes or fast-check arbitraries, random non-strict functions and
 * contexts, series for the exhaustive mode, and strictness as a fast-check property.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Generation
 */
export { arbitrary } from '../engine/generate.ts';
export { withArbitrary } from '../engine/fast-check-bridge.ts';
export { randomFunction } from '../engine/random-function.ts';
export { Seed, Random, type Gen } from '../engine/random.ts';
export { randomContext } from '../engine/context.ts';
export { series, withSeries, NoSeriesError, type Series } from '../engine/series.ts';
export { enumerateCases, type EnumeratedCase, type EnumerationStats, type EnumerateOptions } from '../engine/enumerate.ts';
export { strictProperty, strictCases, assertStrictCase, strictExample, type StrictCase, type StrictPropertyOptions } from '../spec/property.ts';
export { Source, SourceError, type SourcePlan } from '../iter/index.ts';
export { AsyncSource, type AsyncSourcePlan } from '../iter/index.ts';
