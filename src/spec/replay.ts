/**
 * The options that run a failure again, and the errors of a trial named with them.
 * @module
 */
import { defaultOf, SCALED_BUDGET, type Comparison, type Settings } from './options.ts';
import { type AnySpec, blameCase } from './run-case.ts';
import { showShard } from './shard.ts';

/** What decides a failure's case or which cases run: the settings a report names to run it again. */
type Replayed = Pick<Settings<'exhaustive'>, 'forceBudget' | 'compare' | 'shard'> & Partial<Pick<Settings<'random'>, 'trials' | 'maxSize'>>;

/**
 * The options that run the same trials again, as (key, value as written) pairs: the seed, and what
 * else decides a trial's case (the number of trials and the largest size set its size) or which
 * trials run, where it is not the default.
 */
function replayPairs(first: [string, string], settings: Replayed): [string, string][] {
  const { trials, maxSize, forceBudget, compare, shard } = settings;
  const pairs: [string, string][] = [first];
  if (trials !== undefined && trials !== defaultOf('trials')) pairs.push(['trials', String(trials)]);
  if (maxSize !== undefined && maxSize !== defaultOf('maxSize')) pairs.push(['maxSize', String(maxSize)]);
  // What decides whether a trial fails: a comparison given as a function cannot be written here.
  if (forceBudget !== SCALED_BUDGET) pairs.push(['forceBudget', String(forceBudget)]);
  const written = writtenCompare(compare);
  if (written !== undefined && [compare].flat().every((c) => typeof c === 'string')) pairs.push(['compare', written]);
  if (shard !== undefined) pairs.push(['shard', `'${showShard(shard)}'`]);
  return pairs;
}

/**
 * @internal Comparison `compare` as the option is written (`'noStricter'`, `['exact','noLazier']`),
 * or where it is a function, `a function`; undefined where it compares every argument exactly.
 */
export function writtenCompare(compare: Comparison | readonly Comparison[]): string | undefined {
  if ([compare].flat().every((c) => c === 'exact')) return undefined;
  return typeof compare === 'function' ? 'a function' : JSON.stringify(compare).replaceAll('"', "'");
}

/**
 * @internal A spec error or a shape mismatch of trial `i` (whose inputs were `inputs`), naming the
 * trial, the options that run it again and its inputs: the user's own mistake, thrown, not a failure.
 */
export function inTrial(err: unknown, spec: AnySpec, i: number, settings: Settings<'random'>, inputs: readonly unknown[]): unknown {
  return blameCase(err, spec, () => trialPlace(i, settings), inputs);
}

/** @internal Where trial `i` of a run is, as a message names it: its number and the options that run it again. */
export function trialPlace(i: number, settings: Settings<'random'>): string {
  return `trial ${i + 1}, ${replayPairs(['seed', String(settings.seed)], settings).map(([k, v]) => `${k} ${v}`).join(', ')}`;
}

/** @internal The options that run the same trials again, as an object literal: `{ seed: 7, trials: 500 }`. */
export function replayOptions(settings: Settings<'random'>): string {
  return replayWith(['seed', String(settings.seed)], settings);
}

/** @internal The options that run a failure again: `first` (the seed of a random run, the depth of an exhaustive one), then those of `settings` that decide it. */
export function replayWith(first: [string, string], settings: Replayed): string {
  return `{ ${replayPairs(first, settings).map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
}
