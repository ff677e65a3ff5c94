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
// Lazy data: thunks, the "not evaluated" marker, lazy lists and the List namespace.
export {
  Lazy, lazy, now, defer, force, isLazy, thunk, type Thunk, isThunk, withForceBudget, forceCount, forceCallCount,
  LazyLoopError, UnevaluatedError, ForceBudgetExceeded, LazyStackOverflow,
} from './lazy/lazy.ts';
export * as List from './lazy/list.ts';
export { cons, lazyCons, nil, NIL, Cons, Nil, fromArray, fromString, toArray } from './lazy/list.ts';
export type { Cell, List as LazyList } from './lazy/cell.ts';

// Shapes: the structure of a type, as a value.
export {
  type Shape, type ShapeInfo, type TypeOf, type DataShape, type DataDecl, type FieldsOf, type Makers, type Tagged, type Option, type Either, type Ctor, type CtorStyle, type Layer, type Alternative, type PrimKind, type Path, type Collection,
  number, string, boolean, bigint, unit, opaque, type OpaqueOptions, fn, lazyOf, data, list, cell, tuple, record, option, either, setOf, mapOf, dynamic,
  ShapeMismatchError, showPath,
} from './demand/shape.ts';
export { iterable, iterator, type IterDemand } from './iter/index.ts';

// Demands: how much of a value was evaluated; converting, comparing and printing them.
export { Unforced, Forced, unforced, isForced, demandEquals, lessDefined, demandSize, type Demand } from './demand/demand.ts';
export { lub, glb } from './demand/lattice.ts';
export { toDemand, fromDemand, evaluatedPart } from './demand/convert.ts';
export { prettyDemand, printDemand, prettyValue, type PrintOptions } from './demand/print.ts';

// Observing: running a function in a context and recording the demands on its inputs.
export { entangle, observe, observe1, observeDetailed, whnf, normalize, toContext, type Context, type Observation, type DetailedObservation, type ObserveShapes } from './demand/observe.ts';

// Specs: the curried specs of the paper, the helpers they use, and the declarative spec language.
export { spec, specify, specify1, predictDemands, SpecError, type Spec, type SpecBody, type ShapesOf } from './spec/spec.ts';
export { cap, isCapped, numCtrForced, spineForced, elementAt, anyElementDemanded } from './lazy/list.ts';
export { lazySome, lazyNone, lazyTuple, fieldDemand } from './demand/value-form.ts';
export { specOf, type SpecLanguage, type ArgumentDemand, type ArgumentDemands, type AsResultOptions, type ElementOf } from './spec/combinators.ts';
export { pulls, pullsOf, pullCount, endOf, closedAfter, iterations, untouched, IterEnd, Iterations, RETURNED, THROWN, THREW, type IterationEnd } from './iter/index.ts';

// Checking: at random and exhaustively, throwing or returning the result, and their configuration.
export { checkSpec, assertSpec, strictCheckSpecExact, checkSpecExhaustive, assertSpecExhaustive } from './checks.ts';
export { configureGlobal, readConfigureGlobal, resetConfigureGlobal, SEED_VARIABLE, type GlobalSettings } from './config.ts';
export { StrictCheckFailure, type CheckOptions, type CheckResult, type Counterexample, type Comparison } from './spec/check.ts';
export { ExhaustiveCheckFailure, type ExhaustiveOptions, type ExhaustiveResult, type ParallelExhaustiveResult } from './spec/exhaustive.ts';
export type { ExhaustiveProgress, WatchOptions } from './spec/run-watch.ts';

// Generation: inputs from shapes or fast-check arbitraries, series for the exhaustive mode, and fast-check's runner.
export { arbitrary, withArbitrary, randomFunction } from './engine/generate.ts';
export { Seed, Random, type Gen } from './engine/random.ts';
export { randomContext } from './engine/context.ts';
export { series, withSeries, NoSeriesError, type Series } from './engine/series.ts';
export { enumerateCases, type EnumeratedCase, type EnumerationStats, type EnumerateOptions } from './engine/enumerate.ts';
export { strictProperty, strictCases, assertStrictCase, strictExample, type StrictCase, type StrictPropertyOptions } from './spec/property.ts';
export { Source, SourceError, type SourcePlan } from './iter/index.ts';

// Parallel: checks that worker threads load, shards, and what stops a trial in a worker.
export { defineCheck, shardIndices, TrialTimeoutError, WorkerCrashError, type DefinedCheck, type ParallelOptions, type ParallelCheckResult } from './engine/parallel.ts';
