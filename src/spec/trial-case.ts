/**
 * The case of a random trial: its size, and its inputs and context made from the run's seed (what
 * workers and shards reproduce).
 * @module
 */
import type { Context } from '../demand/observe.ts';
import type { Shape } from '../demand/shape-types.ts';
import { Seed } from '../engine/random.ts';
import { generateInputs } from '../engine/generate.ts';
import { randomContext } from '../engine/context.ts';
import type { AnySpec } from './run-case.ts';
import { lastAsked } from '../demand/last-asked.ts';

/**
 * The size of trial `trial` of `trials`, the one place it is decided (workers and shards ask it
 * too): sizes cycle 0, 1, …, `maxSize`, 0, 1, … as in QuickCheck's `computeSize`, so that a
 * longer run tries large inputs as early as a short one (where growing once over the whole run
 * gave 1,000 trials 17 of size 0 first). A last cycle cut short by the end of the run is stretched
 * over 0 to `maxSize`, so that a run shorter than a cycle still reaches `maxSize` (and one trial
 * has it). QuickCheck's sizes stop at `maxSize - 1`; these reach `maxSize`.
 */
export function sizeOf(trial: number, trials: number, maxSize: number): number {
  const cycle = maxSize + 1;
  const step = trial % cycle;
  if (trial - step + cycle <= trials) return step;
  const last = trials % cycle; // the trials of the cut-short last cycle
  return last <= 1 ? maxSize : Math.round((step * maxSize) / (last - 1));
}

/** The seed of the run with integer seed `seed`, that of the run asked last kept: each trial asks it (see {@link Seed.ofRun}), which made it anew, four objects a trial. */
const runSeed = lastAsked((seed: number, _: void): Seed => Seed.ofRun(seed));

/** Trial `i` of a run with `seed`: its inputs and context (what workers and shards reproduce). */
export function trialCase(s: AnySpec, seed: number, i: number, size: number): { inputs: unknown[]; context: Context } {
  const r = runSeed(seed, undefined).variantStream(i);
  const inputs = generateInputs(s.args as readonly Shape<unknown>[], r, size);
  return { inputs, context: randomContext(r.split(), size) };
}
