/**
 * Parallel: checks that worker threads load (`defineCheck`), shards of a run, and what stops a
 * trial in a worker.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Parallel
 */
export { defineCheck, shardIndices, TrialTimeoutError, WorkerCrashError, type DefinedCheck, type ParallelOptions, type ParallelCheckResult } from '../engine/parallel.ts';
