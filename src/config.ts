/**
 * Global configuration: the settings every check takes where its call gives none, as fast-check's
 * `configureGlobal` does for properties, and the seed a CI run can set from its environment.
 * @module
 */
import { checkKnownOptions, showOption } from './engine/options.ts';
import { checkInteger } from './spec/check.ts';

/** The settings {@link configureGlobal} takes: defaults of the options of the same names. */
export interface GlobalSettings {
  /** Random trials of a check. */
  readonly trials?: number | undefined;
  /** The seed of every random check (a fixed run). {@link SEED_VARIABLE} in the environment comes first. */
  readonly seed?: number | undefined;
  /** Largest size of generated inputs and contexts. */
  readonly maxSize?: number | undefined;
  /** Most forces one trial (or case) may make before it counts as diverging. */
  readonly forceBudget?: number | undefined;
  /** Draw diagrams with Unicode box characters. */
  readonly unicode?: boolean | undefined;
  /**
   * Worker threads of the checks given as a `DefinedCheck` (`assertSpec(check)`), which
   * return promises whether or not they use workers; other checks run in the calling thread.
   */
  readonly workers?: number | 'all' | undefined;
  /** With workers: most milliseconds one trial may run. */
  readonly timeout?: number | undefined;
}

const SETTINGS = ['trials', 'seed', 'maxSize', 'forceBudget', 'unicode', 'workers', 'timeout'] as const;

/**
 * The environment variable whose integer value is the seed of every random check that does not
 * give one: a failure seen in CI runs again with `STRICTCHECK_SEED=<its seed> npm test`.
 */
export const SEED_VARIABLE = 'STRICTCHECK_SEED';

let global: GlobalSettings = {};

/**
 * Sets the defaults of every later check's options, replacing those set before (as fast-check's
 * `configureGlobal`). An option given to a call wins over its default here; the seed of
 * {@link SEED_VARIABLE} wins over `seed`. A setting out of range is refused here, not at the
 * first check.
 *
 * @example
 * ```ts
 * // in a test runner's setup file: more trials everywhere, two workers for defined checks
 * configureGlobal({ trials: 1000, workers: 2 });
 * readConfigureGlobal(); // { trials: 1000, workers: 2 }
 * resetConfigureGlobal();
 * ```
 */
export function configureGlobal(settings: GlobalSettings): void {
  checkKnownOptions(settings, SETTINGS);
  checkInteger('trials', settings.trials, 1);
  checkInteger('seed', settings.seed, -Number.MAX_SAFE_INTEGER);
  checkInteger('maxSize', settings.maxSize, 0);
  checkInteger('forceBudget', settings.forceBudget, 1, Infinity);
  checkInteger('timeout', settings.timeout, 1);
  const { workers, unicode } = settings;
  if (workers !== undefined && workers !== 'all' && !(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`workers must be a positive integer or 'all', got ${showOption(workers)}`);
  if (unicode !== undefined && typeof unicode !== 'boolean') throw new TypeError(`unicode must be a boolean, got ${showOption(unicode)}`);
  global = Object.freeze({ ...settings });
}

/** The settings of the last {@link configureGlobal} (`{}` if none). */
export function readConfigureGlobal(): GlobalSettings {
  return global;
}

/** Forgets the settings of {@link configureGlobal}: every check has the defaults of its options again. */
export function resetConfigureGlobal(): void {
  global = {};
}

/** The seed of {@link SEED_VARIABLE}, if it is set; a value that is not an integer is an error saying so. */
export function environmentSeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = env[SEED_VARIABLE];
  if (text === undefined || text.trim() === '') return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`${SEED_VARIABLE} must be an integer (the seed a failure's report names), got ${JSON.stringify(text)}`);
  return seed;
}

/**
 * @internal A call's options with the global defaults filled in where it gives none: `fields`
 * names those that apply to the call's mode (an exhaustive check has no trials nor seed).
 */
export function withGlobalDefaults<O extends object>(options: O, fields: readonly (typeof SETTINGS)[number][]): O {
  const filled: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  const seed = environmentSeed() ?? global.seed;
  for (const field of fields) {
    const value = field === 'seed' ? seed : global[field];
    if (filled[field] === undefined && value !== undefined) filled[field] = value;
  }
  return filled as O;
}
