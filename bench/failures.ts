/**
 * How soon a check finds an over-strict function: `trialsToFailure` runs each of the
 * {@link mutants} (ten over-strict list and tree functions) with several seeds at 100 and at
 * 1,000 trials per run, and takes the median over those runs of the trials to the first failure.
 * Prints nothing; the caller prints. Counts, not times: the machine's load does not move them.
 * @module
 */
import { mutants } from './mutants.ts';
import { median } from './util.ts';
import { checkSpec } from '../src/checks.ts';

const SEEDS = 15;

/** The median over the mutants and seeds of the trials a run of `trials` takes to fail. */
function medianTrialsToFailure(trials: number): number {
  const counts: number[] = [];
  for (const m of mutants) {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = checkSpec(m.spec, m.fn, { trials, seed });
      if (r.passed) throw new Error(`bench: the mutant "${m.name}" passed ${trials} trials (seed ${seed})`);
      counts.push(r.trials);
    }
  }
  return median(counts);
}

/**
 * `trialsToFailureAt100` and `trialsToFailureAt1000`: the median trials to the first failure of
 * an over-strict mutant in runs of 100 and of 1,000 trials; `trialsToFailure`: the larger of the two.
 */
export async function benchFailures(): Promise<Record<string, number>> {
  const at100 = medianTrialsToFailure(100);
  const at1000 = medianTrialsToFailure(1000);
  return { trialsToFailure: Math.max(at100, at1000), trialsToFailureAt100: at100, trialsToFailureAt1000: at1000 };
}
