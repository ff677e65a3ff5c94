/**
 * Benchmark of exhaustive checking: how much demand-driven pruning saves on `take` against
 * `takeSpec` up to depth 6, and how many cases a second the checker runs. Prints nothing.
 *
 * The count without pruning is exact but computed cheaply: for total inputs no hole is ever
 * forced, so the cases are the (input, context) pairs, and the contexts depend only on the
 * result; each is run through `take` and its context alone, without observation or spec.
 * @module
 */
import { enumerateCases, type EnumerationStats } from '../src/engine/enumerate.ts';
import { take, takeSpec } from '../examples/take.ts';
import type { Lazy } from '../src/lazy/lazy.ts';
import type { List } from '../src/lazy/cell.ts';
import { checkSpecExhaustive } from '../src/checks.ts';

/** Cases without pruning (counted), cases with pruning (run), and the checker's throughput, at `depth` (default 6). */
export async function benchExhaustive(depth = 6): Promise<Record<string, number>> {
  const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const plain = (inputs: unknown[], context: (v: unknown) => void) => context(take(inputs[0] as Lazy<number>, inputs[1] as List<number>));
  for (const _ of enumerateCases(takeSpec.args, depth, plain, { prune: false, stats }));
  const t0 = performance.now();
  const pruned = checkSpecExhaustive(takeSpec, take, { depth, progress: false });
  const seconds = (performance.now() - t0) / 1000;
  if (!pruned.passed) throw new Error(`benchExhaustive: take failed its spec:\n${pruned.message}`);
  return {
    enumerationPruning: stats.cases / pruned.cases,
    exhaustiveCasesPerSecond: pruned.totalCases / seconds,
    casesWithoutPruning: stats.cases,
    casesWithPruning: pruned.cases,
  };
}
