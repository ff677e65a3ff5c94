/**
 * Parallel: checks that worker threads load (`defineCheck`), shards of a run, and what stops a
 * trial in a worker.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Parallel
 */
export { defineCheck, type DefinedCheck } from '../spec/registry.ts';
export { shardIndices } from '../spec/shard.ts';
export { TrialTimeoutError, WorkerCrashError } from '../parallel/errors.ts';
export type { ParallelOptions } from '../spec/options.ts';
export type { ParallelCheckResult } from '../parallel/random.ts';
