/**
 * Demand coverage, as QuickCheck's `cover` and fast-check's `statistics`: how the trials of a run
 * split, for the result and for each argument, between not forced, partly forced and fully
 * forced. A run that never demanded a partial result proves little; a check can require minimum
 * shares, and fails saying which was not met.
 * @module
 */
import type { Demand } from '../demand/demand.ts';
import { counted } from './counted.ts';
import type { Ctor } from '../demand/shape-types.ts';
import { END_CTORS, TAKEN_CTOR } from '../iter/demand.ts';
import { SpineCell } from '../demand/compact-demand.ts';
import type { CheckResult } from './result.ts';
import { didYouMean, nearest, showOption } from '../demand/options.ts';
import { argumentName } from '../demand/observe.ts';

/** How many trials left a value not forced, partly forced (some `_` left inside), and fully forced. */
export interface CoverageCounts {
  /** Trials that did not force it at all (its demand `_`). */
  readonly none: number;
  /** Trials that forced part of it. */
  readonly partial: number;
  /** Trials that forced all of it (no `_` left in its demand). */
  readonly full: number;
}

/** The coverage of a run: the counts of the result (the context's demand) and of each argument (the function's demand). */
export interface Coverage {
  /** How far the random contexts forced the result. */
  readonly result: CoverageCounts;
  /** How far the function forced each argument, in order. */
  readonly inputs: readonly CoverageCounts[];
}

/** Minimum shares (from 0 to 1) of a run's trials in which a value was not, partly or fully forced. */
export interface CoverageShares {
  /** Least share of trials that must not force it. */
  readonly none?: number | undefined;
  /** Least share of trials that must force part of it. */
  readonly partial?: number | undefined;
  /** Least share of trials that must force all of it. */
  readonly full?: number | undefined;
}

/**
 * The coverage a check requires, as {@link CoverageShares} of `result` and of arguments, named
 * by their index from 0 or by the spec's names: `{ result: { partial: 0.2 }, 1: { full: 0.1 } }`
 * fails a run in which fewer than 20% of the trials demanded part of the result, or fewer than
 * 10% forced all of the second argument.
 */
export type CoverageRequirement = { readonly [resultOrArgument: string]: CoverageShares };

const KINDS = ['none', 'partial', 'full'] as const;
const SAID = { none: 'not forced', partial: 'partly forced', full: 'fully forced' } as const;

/**
 * The ends of an iteration short of its end (`[]`): closed by the consumer (`return()`,
 * `throw()`), stopped by a pull that threw (`⊥`), or an iterator taken and never pulled. An
 * iteration is fully forced only where it was pulled to its end, with nothing left to pull.
 */
const SHORT_ENDS: ReadonlySet<Ctor> = new Set([END_CTORS.return, END_CTORS.throw, END_CTORS.threw, TAKEN_CTOR]);

/** 0 when `d` is unforced, 1 when some position inside it is (or an iteration in it ended short of its end), 2 when none is: a walk that stops at the first `_`. */
function forcedHow(d: Demand): 0 | 1 | 2 {
  if (!d.forced) return 0;
  const stack: Demand[] = [d];
  // A node that shared structure reaches by several paths is looked at once.
  let seen: Set<Demand> | undefined;
  while (stack.length > 0) {
    const x = stack.pop()!;
    // Those ends are atoms: the set is asked of atoms only (asked of every node, it was 0.5% of a check of take).
    if (!x.forced || (x.ctor.style === 'atom' && SHORT_ENDS.has(x.ctor))) return 1;
    if (x.shared && (seen ??= new Set()).has(x)) continue;
    if (x.shared) seen!.add(x);
    if (x instanceof SpineCell) {
      // A run of list cells, head by head: its fields would make a node per cell.
      x.pushParts(stack);
      continue;
    }
    for (let i = x.arity - 1; i >= 0; i--) stack.push(x.field(i));
  }
  return 2;
}

/** @internal Counts, trial by trial, how far the result and each argument were forced: three integers per value. */
export class CoverageTally {
  /** For value v (0 the result, then the arguments), counts[3v + kind]. */
  readonly counts: number[];
  constructor(arity: number) {
    this.counts = new Array<number>(3 * (arity + 1)).fill(0);
  }
  add(resultDemand: Demand, inputs: readonly Demand[]): void {
    this.counts[forcedHow(resultDemand)]!++;
    for (let i = 0; i < inputs.length; i++) this.counts[3 * (i + 1) + forcedHow(inputs[i]!)]!++;
  }
  /** Adds the counts of a tally kept elsewhere (a worker's, of the trials it ran). */
  addCounts(counts: readonly number[]): void {
    for (let k = 0; k < counts.length; k++) this.counts[k]! += counts[k]!;
  }
  figures(): Coverage {
    const at = (v: number): CoverageCounts => ({ none: this.counts[3 * v]!, partial: this.counts[3 * v + 1]!, full: this.counts[3 * v + 2]! });
    return { result: at(0), inputs: Array.from({ length: this.counts.length / 3 - 1 }, (_, i) => at(i + 1)) };
  }
}

const percent = (n: number, of: number) => `${of === 0 ? 0 : Math.round((100 * n) / of)}%`;

/**
 * A value's shares in whole percents that sum to 100 as its counts do (none where it has none):
 * each rounded down, then the points left over go to the largest remainders, the first on a tie
 * (where rounding each to nearest made 35 and 165 of 200 read 18% and 83%).
 */
function wholeShares(k: CoverageCounts): number[] {
  const total = k.none + k.partial + k.full;
  if (total === 0) return KINDS.map(() => 0);
  const exact = KINDS.map((kind) => (100 * k[kind]) / total);
  const shares = exact.map(Math.floor);
  const byRemainder = [0, 1, 2].sort((a, b) => exact[b]! - shares[b]! - (exact[a]! - shares[a]!) || a - b);
  for (let left = 100 - shares.reduce((a, b) => a + b, 0), j = 0; left > 0; left--, j++) shares[byRemainder[j]!]!++;
  return shares;
}

/** The one line of a report that gives a run's coverage: `Coverage (not forced/partly/fully): result 5/40/55%, n 2/0/98%, xs 10/60/30%.` */
function coverageLine(c: Coverage, names: readonly string[] | undefined): string {
  const shares = (k: CoverageCounts) => `${wholeShares(k).join('/')}%`;
  const parts = [`result ${shares(c.result)}`, ...c.inputs.map((k, i) => `${argumentName(names, i)} ${shares(k)}`)];
  return `Coverage (not forced/partly/fully): ${parts.join(', ')}.`;
}

/**
 * @internal Throws a RangeError unless `required` names only the result and arguments of a spec
 * of `arity` arguments named `names`, with shares from 0 to 1: a misspelt key would pass unchecked.
 */
export function checkCoverageOption(required: unknown, arity: number, names: readonly string[] | undefined): void {
  if (required === undefined) return;
  if (typeof required !== 'object' || required === null) throw new TypeError(`coverage must be an object such as { result: { partial: 0.2 } }, got ${showOption(required)}`);
  for (const [key, shares] of Object.entries(required)) {
    if (valueIndex(key, arity, names) === undefined) {
      throw new RangeError(`coverage.${key}: no such value${didYouMean(nearest(key, ['result', ...(names ?? [])]))}; name 'result', an argument's index from 0 to ${arity - 1}${names ? ` or its name (${names.join(', ')})` : ''}`);
    }
    for (const [kind, share] of Object.entries(shares as object)) {
      if (!(KINDS as readonly string[]).includes(kind)) throw new RangeError(`coverage.${key}.${kind}${didYouMean(nearest(kind, KINDS))}: the shares are none, partial and full`);
      if (typeof share !== 'number' || !(share >= 0 && share <= 1)) throw new RangeError(`coverage.${key}.${kind} must be a share from 0 to 1, got ${showOption(share)}`);
    }
  }
}

/** Which value a key of a {@link CoverageRequirement} names: 0 the result, i + 1 argument i; undefined if none. */
function valueIndex(key: string, arity: number, names: readonly string[] | undefined): number | undefined {
  if (key === 'result') return 0;
  const named = names?.indexOf(key) ?? -1;
  if (named >= 0) return named + 1;
  return /^\d+$/.test(key) && Number(key) < arity ? Number(key) + 1 : undefined;
}

/** What a run is made of, for a coverage report: random trials or enumerated cases. */
export type CoverageUnit = 'trial' | 'case';

/** What a run's coverage falls short of in `required`, one sentence each (none when it meets it), counting its `unit`s. */
function coverageShortfalls(c: Coverage, required: CoverageRequirement | undefined, names: readonly string[] | undefined, unit: CoverageUnit): string[] {
  if (required === undefined) return [];
  const out: string[] = [];
  for (const [key, shares] of Object.entries(required)) {
    const v = valueIndex(key, c.inputs.length, names)!;
    const counts = v === 0 ? c.result : c.inputs[v - 1]!;
    const total = counts.none + counts.partial + counts.full;
    const who = v === 0 ? 'the result' : argumentName(names, v - 1);
    for (const kind of KINDS) {
      const min = shares[kind];
      if (min === undefined || counts[kind] >= min * total) continue;
      out.push(`${who} was ${SAID[kind]} in ${percent(counts[kind], total)} of the ${unit}s (${counts[kind]} of ${total}${counts[kind] === 0 ? ': never' : ''}), under the ${percent(min, 1)} asked (coverage.${key}.${kind})`);
    }
  }
  return out;
}

/**
 * @internal The result of a random run whose trials all passed, given its coverage: passed, its
 * message followed by the coverage line; or, when the coverage falls short of `required`, failed,
 * saying what fell short and how to run it again (`reproduce`).
 */
export function withCoverage(passed: CheckResult, c: Coverage, required: CoverageRequirement | undefined, names: readonly string[] | undefined, reproduce: string): CheckResult {
  const trials = counted(passed.trials, 'trial');
  // A run of no trial (a shard that holds none) has no coverage to tell.
  return coverageVerdict(passed, c, required, names, {
    unit: 'trial',
    ran: passed.trials > 0,
    passedAs: `all ${trials} passed; seed ${passed.seed}`,
    again: `More trials or a larger maxSize may reach it. Reproduce with the option ${reproduce}.`,
  });
}

/** How a run that passed is told in a coverage verdict: what it counted, whether it ran any, how it passed, and what to do when its coverage falls short. */
export interface CoverageRun {
  readonly unit: CoverageUnit;
  /** Whether it ran anything: a run of nothing has no coverage line. */
  readonly ran: boolean;
  /** How it passed, in the failure's header: `all 100 trials passed; seed 1`. */
  readonly passedAs: string;
  /** The last line of the failure: what may reach the coverage, and how to run it again. */
  readonly again: string;
}

/**
 * @internal The result of a run (random or exhaustive) that found no counterexample, given its
 * coverage: passed, its message followed by the coverage line; or, when the coverage falls short
 * of `required`, failed, saying what fell short.
 */
export function coverageVerdict<R extends { readonly passed: boolean; readonly message: string }>(passed: R, c: Coverage, required: CoverageRequirement | undefined, names: readonly string[] | undefined, run: CoverageRun): R & { readonly coverage: Coverage } {
  const line = coverageLine(c, names);
  const short = coverageShortfalls(c, required, names, run.unit);
  if (short.length === 0) return { ...passed, coverage: c, message: run.ran ? `${passed.message}\n${line}` : passed.message };
  const message = [`Failed: the coverage asked for was not reached (${run.passedAs}):`, ...short.map((s) => `  ${s}.`), line, run.again].join('\n');
  return { ...passed, passed: false, coverage: c, message };
}
