/**
 * Global configuration: the settings every check takes where its call gives none, as fast-check's
 * `configureGlobal` does for properties, and the seed a CI run can set from its environment.
 * @module
 */
import { checkGlobalSettings, type GlobalSettings } from './spec/options.ts';

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
  checkGlobalSettings(settings);
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
export function environmentSeed(env: Readonly<Record<string, string | undefined>> = process.env): number | undefined {
  const text = env[SEED_VARIABLE];
  if (text === undefined || text.trim() === '') return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`${SEED_VARIABLE} must be an integer (the seed a failure's report names), got ${JSON.stringify(text)}`);
  return seed;
}

/**
 * @internal The global configuration as a check takes its defaults from it (see
 * `resolveSettings`, which fills in those that apply to the run): the seed of
 * {@link SEED_VARIABLE} first.
 */
export function globalDefaults(): GlobalSettings {
  const seed = environmentSeed() ?? global.seed;
  return seed === undefined ? global : { ...global, seed };
}
