/**
 * The options of the checks, declared once: one descriptor per option (its check, its default,
 * the modes that take it) in a table keyed by the option types, so that no option is listed
 * without its type nor typed without its check; and the one function that checks a call's
 * options and resolves them, with the global configuration, into the settings a run reads.
 * @module
 */
import { availableParallelism } from 'node:os';
import { definedBelow, equalDemands, type Demand } from '../demand/demand.ts';
import { checkDeclared, integer, ofType, oneOf, showOption, type OptionDescriptor } from '../demand/options.ts';
import { checkCoverageOption, type CoverageRequirement } from './coverage.ts';
import { unicodeTerminal } from './diagram.ts';
import { parseShard } from './shard.ts';
import type { SpecError } from './spec.ts';
import { refuseInWorker, type DefinedCheck } from './registry.ts';
import type { AnySpec } from './run-case.ts';
import type { ExhaustiveOptions } from './exhaustive.ts';
import type { StrictPropertyOptions } from './property.ts';

/**
 * How an observed input demand is compared with the spec's: `'exact'` (equal), `'noStricter'`
 * (the function evaluates no more than the spec says), `'noLazier'` (at least as much), or a
 * function of `(actual, predicted)`.
 */
export type Comparison = 'exact' | 'noStricter' | 'noLazier' | ((actual: Demand, predicted: Demand) => boolean);

/** Options of the checks. */
export interface CheckOptions {
  /** Number of random trials. Default 100. */
  readonly trials?: number | undefined;
  /** Seed of the run; the same seed reproduces the same run and counterexample. Default: random. */
  readonly seed?: number | undefined;
  /** Largest size of generated inputs and contexts (sizes cycle 0, 1, …, maxSize, 0, 1, … over the run, as in QuickCheck). Default 30. */
  readonly maxSize?: number | undefined;
  /** The comparison for every argument, or one per argument. Default `'exact'`. */
  readonly compare?: Comparison | readonly Comparison[] | undefined;
  /** Most forces (calls of `force`, on evaluated thunks too) one trial may make before it counts as diverging: catches infinite and cyclic structures walked forever, without a timer. The spec has a budget as large (running past it is a {@link SpecError}). Default 1,000,000, or 10 per lazy position evaluated in the trial's inputs where that is more (a function linear in a large input is not divergent); `Infinity`: no limit. */
  readonly forceBudget?: number | undefined;
  /** Most candidates tried while shrinking. Default 2,000; `Infinity`: no limit. */
  readonly maxShrinkAttempts?: number | undefined;
  /** Draw the diagram with Unicode box characters; default: if the terminal supports them. */
  readonly unicode?: boolean | undefined;
  /**
   * Runs only the trials of shard `"i/n"` (1-based): the trial indices ≡ i-1 (mod n). The `n` shards
   * of a run together run exactly the trials of the unsharded run (e.g. one shard per CI runner).
   */
  readonly shard?: string | undefined;
  /** Called with the index of each trial completed (for progress and tests). */
  readonly onTrial?: ((index: number) => void) | undefined;
  /**
   * Minimum shares of the trials that must leave the result or an argument not forced, partly or
   * fully forced (see {@link CoverageRequirement}): `{ result: { partial: 0.2 } }` fails a run in
   * which fewer than 20% of the trials demanded part of the result, though every trial passed.
   */
  readonly coverage?: CoverageRequirement | undefined;
  /**
   * Milliseconds a case run in this thread (without workers) may take before a warning on standard
   * error names the check and says what to do: a function that loops without forcing its inputs
   * blocks the thread for ever, which nothing in it can stop (with workers, `timeout` does), and an
   * asynchronous one awaiting a promise that never settles waits for ever under a test runner. A
   * watchdog thread writes it while the case runs. Default 4,000: before the 5 s that vitest and
   * jest give a test by default, whose timeout would otherwise be all a user sees; `Infinity`: never.
   */
  readonly stallWarning?: number | undefined;
}

/** Options of a check run with worker threads. */
export interface ParallelOptions extends CheckOptions {
  /** Number of worker threads (`'all'`: one per core). Without it, the check runs in this thread. */
  readonly workers?: number | 'all' | undefined;
  /**
   * Most milliseconds one trial (or shrink candidate) may run in a worker, from when the function starts running there (and, on Linux, computing: its thread's CPU time);
   * past it, it is stopped and reported as a counterexample. Only the function's run counts: the spec has a limit of its own (10 times this, at least 1 s; past it, a spec error). Default 10,000. See docs/parallel.md.
   */
  readonly timeout?: number | undefined;
  /** `'deterministic'` (default): the same minimal counterexample as sequential shrinking; `'greedy'`: whichever failing candidate a worker finds first. */
  readonly shrinking?: 'deterministic' | 'greedy' | undefined;
  /** Most candidates that time out or crash a worker while shrinking such a counterexample. Default 8; `Infinity`: no limit. */
  readonly maxShrinkTimeouts?: number | undefined;
}

/** The settings `configureGlobal` takes: defaults of the options of the same names. */
export interface GlobalSettings {
  /** Random trials of a check. */
  readonly trials?: number | undefined;
  /** The seed of every random check (a fixed run). `SEED_VARIABLE` in the environment comes first. */
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
  /** Without workers: milliseconds a case may run before a warning on standard error. */
  readonly stallWarning?: number | undefined;
}

/** @internal Where options are given: to a random check, an exhaustive check, a fast-check property, or as the global configuration. */
export type Mode = 'random' | 'exhaustive' | 'property' | 'global';

/** @internal The options type of each mode. */
export interface OptionsOf {
  readonly random: ParallelOptions;
  readonly exhaustive: ExhaustiveOptions;
  readonly property: StrictPropertyOptions;
  readonly global: GlobalSettings;
}

/** Every option of every mode, by name. */
type AllOptions = ParallelOptions & ExhaustiveOptions;

/** @internal What the table says of an option of type `T`. */
interface Declared<T> extends OptionDescriptor<T> {
  /** The modes that take it. */
  readonly modes: readonly Mode[];
  /** Whether it applies only with workers: a call without them that gives it is refused (it would do nothing), and the global configuration's applies only with them. */
  readonly workersOnly?: true;
  /** Where a value the call does not give comes from, before the default, if not the global configuration. */
  fallback?(call: Call): T | undefined;
  /** What a run reads of the value (given, from the fallback or the global configuration, or the default), if not the value itself; it throws for one the call cannot take. */
  resolve?(value: T, run: Resolving): unknown;
}

/** @internal What an option's resolution knows of its call. */
interface Resolving {
  readonly call: Call;
  /** Whether the run has workers. */
  readonly workers: boolean;
}

/** @internal The force budget of a run whose options give none: {@link DEFAULT_FORCE_BUDGET}, scaled per trial (a value no budget given can have, so that 1,000,000 given is that many forces, not the default scaled). */
export const SCALED_BUDGET = -1;

/** @internal The forces a trial may make by default, before scaling (see `caseBudget`). */
export const DEFAULT_FORCE_BUDGET = 1_000_000;

/** @internal The most trials a run with workers has: they share the smallest failing trial as a 32-bit integer. */
export const MAX_TRIALS = 2 ** 31 - 1;

/** @internal The longest delay of a timer, the largest `timeout`: Node runs a longer one after 1 ms. */
export const MAX_TIMER = 2 ** 31 - 1;

/**
 * @internal The options, in the order an error lists them. A spec's comparison and coverage are
 * checked against its arguments, and a shard as it is parsed, after the others (see {@link resolveSettings}).
 */
const OPTIONS = {
  trials: {
    modes: ['random', 'global'],
    check: integer(1),
    default: () => 100,
    resolve: (value: number, { workers }: Resolving) => {
      if (workers && value > MAX_TRIALS) throw new RangeError(`trials: at most ${MAX_TRIALS} with workers, got ${value}`);
      return value;
    },
  },
  seed: { modes: ['random', 'global'], check: integer(-Number.MAX_SAFE_INTEGER), default: () => (Math.random() * 2 ** 31) | 0 },
  depth: { modes: ['exhaustive'], check: integer(0), required: true },
  // A defined check's own comparison comes before the default; each comparison is checked as the settings' comparisons are made.
  compare: { modes: ['random', 'exhaustive', 'property'], check: () => {}, fallback: (call: Call) => call.check?.compare, default: (): Comparison | readonly Comparison[] => 'exact' },
  forceBudget: { modes: ['random', 'exhaustive', 'property', 'global'], check: integer(1, Infinity), default: () => SCALED_BUDGET },
  maxSize: { modes: ['random', 'property', 'global'], check: integer(0), default: () => 30 },
  maxShrinkAttempts: { modes: ['random'], check: integer(0, Infinity), default: () => 2000 },
  unicode: { modes: ['random', 'exhaustive', 'property', 'global'], check: ofType('boolean'), default: () => unicodeTerminal() },
  // Checked as it is parsed, once, into the shard a run reads.
  shard: { modes: ['random', 'exhaustive'], check: () => {}, resolve: parseShard },
  onTrial: { modes: ['random'], check: ofType('function') },
  coverage: {
    modes: ['random', 'exhaustive'],
    check: () => {},
    resolve: (value: CoverageRequirement, { call }: Resolving) => {
      checkCoverageOption(value, call.spec.args.length, call.spec.names);
      return value;
    },
  },
  prune: { modes: ['exhaustive'], check: ofType('boolean'), default: () => true },
  progress: { modes: ['exhaustive'], check: ofType('boolean'), default: () => !process.env.CI },
  onProgress: { modes: ['exhaustive'], check: ofType('function') },
  maxCases: { modes: ['exhaustive'], check: integer(1, Infinity), default: () => Infinity },
  timeLimit: { modes: ['exhaustive'], check: integer(1, Infinity), default: () => Infinity },
  workers: {
    modes: ['random', 'exhaustive', 'global'],
    check: (value, name) => {
      if (value !== 'all' && !(Number.isInteger(value) && (value as number) >= 1)) throw new RangeError(`${name} must be a positive integer or 'all', got ${showOption(value)}`);
    },
    // The global configuration's workers apply to the defined checks only (which return a promise anyway).
    fallback: (call: Call) => (call.check ? call.global?.workers : undefined),
    resolve: (value: number | 'all') => (value === 'all' ? availableParallelism() : value),
  },
  timeout: { modes: ['random', 'exhaustive', 'global'], workersOnly: true, check: integer(1, MAX_TIMER), default: () => 10_000 },
  stallWarning: { modes: ['random', 'exhaustive', 'global'], check: integer(1, Infinity), default: () => 4_000 },
  shrinking: { modes: ['random'], workersOnly: true, check: oneOf('deterministic', 'greedy'), default: (): 'deterministic' | 'greedy' => 'deterministic' },
  maxShrinkTimeouts: { modes: ['random'], workersOnly: true, check: integer(0, Infinity), default: () => 8 },
} as const satisfies { readonly [K in keyof AllOptions]-?: Declared<Exclude<AllOptions[K], undefined>> };

type Table = typeof OPTIONS;
type Name = keyof Table;

/** @internal The options a mode takes. */
export type NamesOf<M extends Mode> = { [K in Name]: M extends Table[K]['modes'][number] ? K : never }[Name];

/** What a run reads of option `K`: its value, resolved if its descriptor says how. */
type Value<K extends Name> = Table[K] extends { readonly resolve: (...args: never) => infer R } ? R : Exclude<AllOptions[K], undefined>;

/** The comparison of an argument's observed demand (`actual`) with the predicted one. */
type Compare = (actual: Demand, predicted: Demand) => boolean;

/**
 * @internal The settings of a run of mode `M`: each of its options, given, from the global
 * configuration or by default (`undefined` only for one with no default, not given), and the
 * comparison of each argument.
 */
export type Settings<M extends Exclude<Mode, 'global'>> = {
  readonly [K in NamesOf<M>]: Table[K] extends { readonly default: unknown } | { readonly required: true } ? Value<K> : Value<K> | undefined;
} & { readonly comparisons: Compare[] };

/** Whether two unions of names are the same. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Each mode's options type names exactly the table's options of the mode: `true` for each, a type error otherwise. */
const MODES: { readonly [M in Mode]: Same<keyof OptionsOf[M], NamesOf<M>> } = { random: true, exhaustive: true, property: true, global: true };

/** The options of each mode, in the table's order. */
const NAMES = Object.fromEntries(
  (Object.keys(MODES) as Mode[]).map((m) => [m, (Object.keys(OPTIONS) as Name[]).filter((n) => (OPTIONS[n].modes as readonly Mode[]).includes(m))]),
) as unknown as { readonly [M in Mode]: readonly NamesOf<M>[] };

/** @internal The default of option `name`, as a report tells a value given from it. */
export function defaultOf<K extends 'trials' | 'maxSize'>(name: K): ReturnType<Table[K]['default']> {
  return OPTIONS[name].default() as ReturnType<Table[K]['default']>;
}

/** @internal A call to resolve the options of. */
export interface Call {
  /** The spec checked: a comparison and a coverage requirement are checked against its arguments. */
  readonly spec: AnySpec;
  /** The defined check the call runs (`assertSpec(check)`): its comparison is the default, and the global configuration's workers apply. */
  readonly check?: DefinedCheck<readonly unknown[], unknown> | undefined;
  /** The global configuration's defaults. */
  readonly global?: GlobalSettings | undefined;
}

/** @internal Checks settings of the global configuration, as a call's options of the same names are. */
export function checkGlobalSettings(settings: GlobalSettings): void {
  refuseOtherModes(settings, 'global');
  checkDeclared(settings, OPTIONS, undefined, NAMES.global);
}

/**
 * @internal Checks the options of a call of mode `mode`, and resolves them into its settings:
 * each option is the call's, else its fallback's (the global configuration's where it applies to
 * the run: a timeout to a run with workers), else its default, then resolved as its descriptor
 * says. Every option is checked before any run, so that a bad one fails before the first trial.
 */
export function resolveSettings<M extends Exclude<Mode, 'global'>>(mode: M, options: OptionsOf[M], call: Call): Settings<M> {
  refuseInWorker(); // a check module that runs checks when imported, in a worker importing it
  const names: readonly Name[] = NAMES[mode];
  refuseOtherModes(options, mode);
  checkDeclared(options, OPTIONS, undefined, names);
  const given = options as Record<string, unknown>;
  const global = (call.global ?? {}) as Record<string, unknown>;
  const fromCall = (name: Name, workers: boolean): unknown => {
    const option: Declared<unknown> = OPTIONS[name];
    if (option.workersOnly && !workers && given[name] !== undefined) throw workersOnly(name);
    return given[name] ?? (option.fallback ? option.fallback(call) : option.workersOnly && !workers ? undefined : global[name]);
  };
  // Read first, as every other option's resolution asks whether the run has them.
  const workers = names.includes('workers') ? fromCall('workers', false) : undefined;
  const run: Resolving = { call, workers: workers !== undefined };
  const settings: Record<string, unknown> = {};
  for (const name of names) {
    const option: Declared<unknown> = OPTIONS[name];
    const value = (name === 'workers' ? workers : fromCall(name, run.workers)) ?? option.default?.();
    settings[name] = value !== undefined && option.resolve ? option.resolve(value, run) : value;
  }
  return { ...settings, comparisons: comparisons(settings.compare as CheckOptions['compare'], call.spec.args.length) } as Settings<M>;
}

/** Who takes the options of each mode, as an error names them. */
const TAKERS: { readonly [M in Mode]: string } = {
  random: 'the random checks (checkSpec, assertSpec)',
  exhaustive: 'the exhaustive checks (checkSpecExhaustive, assertSpecExhaustive)',
  property: 'strictProperty',
  global: 'configureGlobal',
};

/** Refuses an option of another mode than `mode` (a `depth` given to a random check), saying which checks take it, where it would be unknown. */
function refuseOtherModes(options: object, mode: Mode): void {
  const taken: readonly string[] = NAMES[mode];
  const name = Object.keys(options).find((k) => !taken.includes(k) && Object.hasOwn(OPTIONS, k)) as Name | undefined;
  if (name === undefined) return;
  const runner = mode === 'property' ? " (fast-check's runner runs it: give fc.assert numRuns and seed)" : '';
  throw new RangeError(`${name} is not an option of ${TAKERS[mode]}${runner}: it is one of ${(OPTIONS[name].modes as readonly Mode[]).map((m) => TAKERS[m]).join(' and ')}`);
}

/**
 * The error for an option that applies only with workers (`timeout`, …), given to a run without
 * them, where it would do nothing: above all `timeout`, which cannot stop a trial in this thread.
 */
function workersOnly(name: string): RangeError {
  const timeout = name === 'timeout';
  return new RangeError(
    `${name} applies only with workers${timeout ? ': a trial running in this thread cannot be stopped from outside it' : ''}. Add workers (a check made with defineCheck, see docs/parallel.md), or leave ${name} out${timeout ? ' (forceBudget stops a trial that forces without end)' : ''}`,
  );
}

/** @internal The comparison of each of `arity` arguments that `compare` names: one for all, or one per argument. */
export function comparisons(compare: CheckOptions['compare'], arity: number): Compare[] {
  const pick = (c: Comparison) => {
    if (typeof c === 'function') return c;
    // The checker's own demands: compared without checking that they are demands.
    if (c === 'exact') return equalDemands;
    if (c === 'noStricter') return definedBelow;
    if (c === 'noLazier') return (a: Demand, p: Demand) => definedBelow(p, a);
    throw new RangeError(`compare must be 'exact', 'noStricter', 'noLazier' or a function (or an array of one per argument), got ${showOption(c)}`);
  };
  const given = compare ?? 'exact';
  if (!Array.isArray(given)) {
    const one = pick(given as Comparison); // checked even for a spec of no arguments
    return Array.from({ length: arity }, () => one);
  }
  if (given.length !== arity) throw new TypeError(`compare: ${given.length} comparisons given for ${arity} arguments`);
  return given.map(pick);
}
