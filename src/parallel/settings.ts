/**
 * The options of a check run with worker threads, and what a run checks of them first.
 * @module
 */
import { availableParallelism } from 'node:os';
import { showOption } from '../engine/options.ts';
import { checkInteger, type CheckOptions } from '../spec/check.ts';
import type { DefinedCheck } from '../spec/registry.ts';
import { MAX_TIMER } from './pool.ts';

/** Options of a check run with worker threads. */
export interface ParallelOptions extends CheckOptions {
  /** Number of worker threads (`'all'`: one per core). Without it, the check runs in this thread. */
  readonly workers?: number | 'all' | undefined;
  /**
   * Most milliseconds one trial (or shrink candidate) may run in a worker, from when it starts there (and, on Linux, computing: its thread's CPU time);
   * past it, it is stopped and reported as a counterexample (a spec past it is a spec error). Default 10,000. See docs/parallel.md.
   */
  readonly timeout?: number | undefined;
  /** `'deterministic'` (default): the same minimal counterexample as sequential shrinking; `'greedy'`: whichever failing candidate a worker finds first. */
  readonly shrinking?: 'deterministic' | 'greedy' | undefined;
  /** Most candidates that time out or crash a worker while shrinking such a counterexample. Default 8; `Infinity`: no limit. */
  readonly maxShrinkTimeouts?: number | undefined;
}

/**
 * @internal What a worker is told of a run's comparison: the run's own, if it is the check's (given
 * to defineCheck, a function perhaps, which the worker finds itself), else the options' (by name).
 */
export function workerCompare(check: DefinedCheck<readonly unknown[], unknown>, options: Pick<CheckOptions, 'compare'>): { compare?: CheckOptions['compare']; ownCompare: boolean } {
  const ownCompare = check.compare !== undefined && options.compare === check.compare;
  return ownCompare || options.compare === undefined ? { ownCompare } : { compare: options.compare, ownCompare };
}

/**
 * @internal What a run with workers checks first: its options for workers, and how many workers to
 * start. Workers are sent only the options' comparison, which cannot hold functions; they find
 * the check's themselves.
 */
export function workerSettings(check: DefinedCheck<readonly unknown[], unknown>, options: Pick<ParallelOptions, 'compare' | 'workers' | 'timeout' | 'maxShrinkTimeouts' | 'shrinking'>): { workers: number } {
  if (!workerCompare(check, options).ownCompare && [options.compare].flat().some((c) => typeof c === 'function')) {
    throw new TypeError('compare: comparisons given as functions cannot be sent to workers; give them to defineCheck(..., { compare }) and run the check itself (assertSpec(check, options))');
  }
  checkInteger('timeout', options.timeout, 1, MAX_TIMER);
  checkInteger('maxShrinkTimeouts', options.maxShrinkTimeouts, 0, Infinity);
  if (options.shrinking !== undefined && options.shrinking !== 'deterministic' && options.shrinking !== 'greedy') {
    throw new RangeError(`shrinking must be 'deterministic' or 'greedy', got ${showOption(options.shrinking)}`);
  }
  const workers = options.workers === 'all' ? availableParallelism() : (options.workers ?? 2);
  if (!Number.isInteger(workers) || workers < 1) throw new TypeError(`workers: expected a positive integer or 'all', got ${String(options.workers)}`);
  return { workers };
}
