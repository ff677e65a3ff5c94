/**
 * Checking: a spec against a function at random or exhaustively, throwing (`assertSpec`) or
 * returning the result (`checkSpec`), against a reference implementation
 * (`checkSameStrictness`, `checkSameStrictnessAsync`), the demand coverage of a run, and the global configuration.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Checking
 */
export { checkSpec, assertSpec, strictCheckSpecExact, checkSpecExhaustive, assertSpecExhaustive } from '../checks.ts';
export { checkSameStrictness, assertSameStrictness, checkSameStrictnessAsync, assertSameStrictnessAsync } from '../same-strictness.ts';
export { configureGlobal, readConfigureGlobal, resetConfigureGlobal, SEED_VARIABLE } from '../config.ts';
export type { CheckOptions, Comparison, GlobalSettings } from '../spec/options.ts';
export { CheckFailure, StrictCheckFailure, type CheckResult, type Counterexample, type FailureJson } from '../spec/result.ts';
export type { Coverage, CoverageCounts, CoverageShares, CoverageRequirement } from '../spec/coverage.ts';
export { ExhaustiveCheckFailure, type ExhaustiveOptions, type ExhaustiveResult } from '../spec/exhaustive.ts';
export type { ParallelExhaustiveResult } from '../parallel/exhaustive.ts';
export type { ExhaustiveProgress, WatchOptions } from '../spec/run-watch.ts';
export { checkSpecAsync, assertSpecAsync, checkSpecExhaustiveAsync, assertSpecExhaustiveAsync } from '../async-checks.ts';
export { UnhandledRejectionError, LateRejectionError, UnattributedRejectionError } from '../spec/unhandled-rejections.ts';
