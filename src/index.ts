/**
 * strictcheck: property-based testing of the strictness of functions over explicitly lazy data,
 * a TypeScript port of StrictCheck (Foner, Zhang, Lampropoulos, ICFP 2018).
 *
 * @example
 * ```ts
 * import { observe, normalize, fromArray, List, prettyDemand } from 'strictcheck';
 * const times = (xs: List.List<number>, ys: List.List<number>) => List.zipWith((a: number, b: number) => a * b, xs, ys);
 * const { result, inputs } = observe(normalize, times, fromArray([10, 20]), fromArray([30, 40]));
 * prettyDemand(inputs[1]!); // '30 : 40 : _'
 * ```
 * @module
 */
export * from './lazy/lazy.ts';
export * as List from './lazy/list.ts';
export { cons, lazyCons, nil, NIL, Cons, Nil, fromArray, fromString, toArray, cap, isCapped, numCtrForced, spineForced, elementAt, anyElementDemanded } from './lazy/list.ts';
export type { Cell, List as LazyList } from './lazy/cell.ts';
export {
  type Shape, type ShapeInfo, type TypeOf, type DataShape, type DataDecl, type FieldsOf, type Makers, type Tagged, type Option, type Either, type Ctor, type CtorStyle, type Layer, type Alternative, type PrimKind, type Path, type Collection,
  number, string, boolean, bigint, unit, opaque, type OpaqueOptions, fn, lazyOf, data, list, cell, tuple, record, option, either, setOf, mapOf, dynamic,
  ShapeMismatchError, showPath,
} from './demand/shape.ts';
export { Unforced, Forced, unforced, isForced, demandEquals, lessDefined, demandSize, type Demand } from './demand/demand.ts';
export { lub, glb } from './demand/lattice.ts';
export { lazySome, lazyNone, lazyTuple, fieldDemand } from './demand/value-form.ts';
export { toDemand, fromDemand, evaluatedPart, valuePrefix } from './demand/convert.ts';
export * from './demand/print.ts';
export { entangle, observe, observe1, observeDetailed, whnf, normalize, toContext, type Context, type Observation, type DetailedObservation, type ObserveShapes } from './demand/observe.ts';
export { specOf, type SpecLanguage, type ArgumentDemand, type ArgumentDemands, type AsResultOptions, type ElementOf } from './spec/combinators.ts';
export { spec, specify, specify1, predictDemands, SpecError, type Spec, type SpecBody, type ShapesOf } from './spec/spec.ts';
export { strictCheck, StrictCheckFailure, type CheckOptions, type CheckResult, type Counterexample, type Comparison } from './spec/check.ts';
export { drawDiagram, unicodeTerminal, type DiagramParts } from './spec/diagram.ts';
export { Seed, Random, type Gen } from './engine/random.ts';
export { arbitrary, withArbitrary, consume, draws, recur, produce, randomFunction, type Enclosing, type Input } from './engine/generate.ts';
export { randomContext } from './engine/context.ts';
export { shrinkValue, shrinkDemand } from './engine/shrink.ts';
export {
  defineCheck, strictCheckParallel, shardIndices, TrialTimeoutError, WorkerCrashError, WORKER_RULE,
  type DefinedCheck, type ParallelOptions, type ParallelCheckResult,
} from './engine/parallel.ts';
export { strictCheckExhaustive, strictCheckExhaustiveResult, ExhaustiveCheckFailure, type ExhaustiveOptions, type ExhaustiveResult, type ParallelExhaustiveResult } from './spec/exhaustive.ts';
export { strictProperty, strictCases, type StrictCase, type StrictPropertyOptions } from './spec/property.ts';
export { series, withSeries, functionSeries, NoSeriesError, Refine, type Series } from './engine/series.ts';
export { enumerateCases, type EnumeratedCase, type EnumerationStats, type EnumerateOptions } from './engine/enumerate.ts';
export { checkSpec, assertSpec, strictCheckSpecExact, checkSpecExhaustive, assertSpecExhaustive } from './checks.ts';
export { configureGlobal, readConfigureGlobal, resetConfigureGlobal, SEED_VARIABLE, type GlobalSettings } from './config.ts';
export {
  iterable, iterator, pulls, pullsOf, pullCount, endOf, closedAfter, iterations, untouched, IterEnd, Iterations, RETURNED, THROWN, THREW, Source, SourceError,
  type IterationEnd, type IterDemand, type SourcePlan,
} from './iter/index.ts';
export { asyncIterable, asyncIterator, Ahead, aheadOf, readAhead, pulledElements, AsyncSource, type AnyIterDemand, type AsyncSourcePlan } from './iter/index.ts';
export { checkSpecAsync, assertSpecAsync } from './async-checks.ts';
export { observeDetailedAsync } from './demand/observe.ts';
