/**
 * Exhaustive strictness checking up to a depth (SmallCheck / Lazy SmallCheck): every input of
 * depth at most `d`, every non-strict function argument of the enumerated family, every demand
 * on the result up to `d`, by iterative deepening from depth 0; with demand-driven pruning of
 * the inputs. See `engine/series.ts` for the depth of values and functions, and
 * `engine/enumerate.ts` for contexts and pruning.
 * @module
 */
import { CaseTree, comparePaths, type CaseNode, type EnumeratedCase, type EnumerationStats } from '../engine/enumerate.ts';
import { counted } from './counted.ts';
import { showShard } from './shard.ts';
import { inhabited, NoSeriesError } from '../engine/series.ts';
import type { CheckOptions } from './options.ts';
import { replayWith } from './replay.ts';
import { failureReport } from './report.ts';
import { CheckFailure, printable, type Counterexample } from './result.ts';
import { caseDriver, counterexampleOf, drive, driveAsync, blameCase, type AnySpec, type Fn, type Steps, type Trial } from './run-case.ts';
import { rerun } from './shrink-case.ts';
import { checkCall } from './spec.ts';
import { watchRun, type RunWatch, type WatchOptions } from './run-watch.ts';
import type { Settings } from './options.ts';
import { argumentName } from '../demand/observe.ts';
import { coverageVerdict, CoverageTally, type Coverage } from './coverage.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** Options of the exhaustive checks (`assertSpecExhaustive`, `checkSpecExhaustive`). */
export interface ExhaustiveOptions extends Pick<CheckOptions, 'compare' | 'forceBudget' | 'unicode' | 'stallWarning'>, WatchOptions {
  /**
   * Minimum shares of the cases of the deepest depth in which the result or an argument was not,
   * partly or fully forced, as for random checks (see `CheckOptions.coverage`): a run that found
   * no counterexample fails when its cases fall short. Counted alike with workers.
   */
  readonly coverage?: CheckOptions['coverage'];
  /** The largest depth checked; depths 0, 1, …, `depth` are checked in turn. */
  readonly depth: number;
  /** Lazy SmallCheck's demand-driven pruning of the inputs. Default true (the verdict is the same, in far fewer cases). */
  readonly prune?: boolean | undefined;
  /**
   * Number of worker threads (`'all'`: one per core) that enumerate the cases of each depth,
   * subtree by subtree; the result is that of the run without workers. The check must be made
   * with `defineCheck` (see docs/parallel.md). Without it, the check runs in this thread.
   */
  readonly workers?: number | 'all' | undefined;
  /** With workers: most milliseconds one case may run, counted as for random checks (see docs/parallel.md); past it, it is stopped and reported as a counterexample (a spec past it is a spec error). Default 10,000. */
  readonly timeout?: number | undefined;
  /**
   * Checks only part `"i/n"` (1-based) of the cases of each depth: the n shards of a run together
   * check exactly its cases, each once (e.g. one shard per CI runner; see docs/parallel.md). A
   * shard reports the first counterexample of its own part.
   */
  readonly shard?: string | undefined;
}

/** What an exhaustive check found. */
export interface ExhaustiveResult {
  /** Whether every case agreed with the spec. */
  readonly passed: boolean;
  /** The deepest depth checked: `options.depth` when passed, the depth of the counterexample otherwise. */
  readonly depth: number;
  /** Cases run at that depth (each finished run is a case; with pruning one case stands for every filling of the parts of the inputs it left unforced). */
  readonly cases: number;
  /** Cases run over all depths. */
  readonly totalCases: number;
  /** Runs over all depths, including those that stopped on an unfilled part of an input and refined it. */
  readonly runs: number;
  /** The first counterexample found (at the smallest failing depth), parts never forced filled with their smallest value (none for a failure seen only in a worker, which passes in this thread: its message shows the worker's diagram). */
  readonly counterexample?: Counterexample;
  /** A report: a summary line, and for a failure the diagram. */
  readonly message: string;
  /**
   * Present when a budget (`maxCases`, `timeLimit`) stopped a run that had found no counterexample:
   * it passed the cases it ran, and `depth` and `cases` say where it stopped.
   */
  readonly stoppedBy?: 'maxCases' | 'timeLimit';
  /**
   * How the cases of the deepest depth checked split, for the result and each argument, between
   * not forced, partly and fully forced (a case pruning ran stands for all the fillings of what it
   * left unforced, and counts once); with workers, the sum of their counts, the same figures.
   */
  readonly coverage?: Coverage;
}

/** Thrown by `assertSpecExhaustive` on a counterexample; its message holds the diagram. */
export class ExhaustiveCheckFailure extends CheckFailure<ExhaustiveResult> {
  /** Always `'ExhaustiveCheckFailure'`, telling an exhaustive check's failure from a random one's (`StrictCheckFailure`). */
  override name = 'ExhaustiveCheckFailure';
}

/** @internal What a run needs: the spec and function checked, and the settings of its call. */
export interface Setup {
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly settings: Settings<'exhaustive'>;
  /** An asynchronous check (`checkSpecExhaustiveAsync`): each case is observed asynchronously and awaited. */
  readonly async: boolean;
}

/** @internal A run under way: its setup, and its watch (budgets and progress), started with its first case (with workers, once they are ready). */
export interface Run extends Setup {
  readonly watch: RunWatch;
}

/** @internal An exhaustive run of `fn` against `s` with `settings` (`async`: an asynchronous check), once every argument has values of the run's depth. */
export function setup(s: AnySpec, fn: Fn, settings: Settings<'exhaustive'>, async: boolean): Setup {
  checkCall(s, fn, async, 'exhaustive');
  const maxDepth = settings.depth;
  // An argument without a value that deep would make a run of no case, which would pass.
  s.args.forEach((shape, i) => {
    const name = argumentName(s.names, i);
    if (inhabited(shape, maxDepth, name)) return;
    throw new NoSeriesError(
      `cannot enumerate ${name} (shape ${shape.name}): it has no value of depth at most ${maxDepth}, so no case would run; give a larger depth, or, for a type without a finite value (a stream, which has none at any depth), a series with withSeries(shape, (depth) => values)`,
    );
  });
  return { spec: s, fn, settings, async };
}

/**
 * @internal The enumeration tree of one depth, whose walks are driven by a case driver (see
 * `caseDriver`). A run that forces a hole (in the function, the context, the spec or the
 * comparison) is refined by the tree; a spec error names its case.
 */
export function treeOf(set: { readonly spec: AnySpec; readonly settings: Pick<Settings<'exhaustive'>, 'prune'> }, depth: number): CaseTree<Trial> {
  const { spec } = set;
  return new CaseTree(spec.args, depth, { prune: set.settings.prune, names: spec.names, result: spec.result, blame: (err, inputs) => inCase(err, spec, depth, inputs) });
}

/** @internal What one depth found: its cases and runs up to the first counterexample, if any (a case that failed, or one that did not finish in a worker). */
export interface DepthOutcome {
  readonly cases: number;
  readonly runs: number;
  readonly found?: EnumeratedCase<Trial>;
  /** The found case run again on its total inputs, for the report (see {@link foundAgain}). */
  readonly again?: Trial;
  /** Whether a budget stopped the run in this depth. */
  readonly stopped?: boolean;
  /** When the depth found no counterexample and was not stopped: how far its cases forced the result and each argument. */
  readonly coverage?: Coverage;
  /** With workers: the report of a failure only they saw (a case that did not finish, or that passes in this thread), given where it was found. */
  readonly reported?: (where: string) => { readonly counterexample?: Counterexample; readonly message: string };
}

/** @internal A spec error or a shape mismatch, naming its case (in the worker that ran it, if any) as random checking names its trial. */
export function inCase(err: unknown, spec: AnySpec, depth: number, inputs: readonly unknown[]): unknown {
  return blameCase(err, spec, () => `exhaustive, depth ${depth}`, inputs);
}

/**
 * @internal The depth loop of a run, in this thread or with workers: yields each depth in turn,
 * from 0, to be sent what its cases found (as `drive` or `driveAsync` does, with the runner of a
 * depth's cases: the part that differs), until a depth ends the run with its result.
 */
export function* depthLoop(run: Run): Generator<number, ExhaustiveResult, DepthOutcome> {
  const totals = { cases: 0, runs: 0 };
  try {
    for (let depth = 0; ; depth++) {
      const out = yield depth;
      run.watch.depthDone(depth, out.cases);
      const result = conclude(run, depth, out, totals);
      if (result) return result;
    }
  } finally {
    run.watch.done();
  }
}

/** Adds a depth's outcome to the totals: the result if it ends the run. */
function conclude(set: Run, depth: number, out: DepthOutcome, totals: { cases: number; runs: number }): ExhaustiveResult | undefined {
  totals.cases += out.cases;
  totals.runs += out.runs;
  const { spec, settings } = set;
  const totalCases = totals.cases;
  const done = { depth, cases: out.cases, totalCases, runs: totals.runs };
  const part = settings.shard ? `, shard ${showShard(settings.shard)}` : '';
  const where = `exhaustive, depth ${depth}${part}, after ${counted(totalCases, 'case')}`;
  const reproduce = `Reproduce with the options ${replayWith(['depth', String(depth)], settings)}.`;
  if (out.reported) return { passed: false, ...done, ...out.reported(where) };
  if (out.found) {
    const c = out.found;
    // Holes never forced do not matter: show the smallest total inputs (forcing a hole would throw), run again for the report.
    const inputs = out.again?.inputs ?? c.total();
    const { shown, message } = failureReport(spec, c.outcome, out.again, where, reproduce, settings.unicode, inputs);
    return { passed: false, ...done, counterexample: counterexampleOf(shown), message };
  }
  if (out.stopped) return stoppedResult(set, depth, done, out.cases, part);
  if (depth < settings.depth) return undefined;
  const passedAs = `all ${counted(out.cases, 'case')} of depth ${depth}${part}`;
  const passed: ExhaustiveResult = { passed: true, ...done, message: `+++ OK, passed ${passedAs} (${counted(totalCases, 'case')} and ${totals.runs} runs over ${depths(0, depth)}).` };
  if (!out.coverage) return passed;
  return coverageVerdict(passed, out.coverage, settings.coverage, spec.names, {
    unit: 'case',
    ran: out.cases > 0,
    passedAs: `${passedAs} passed`,
    again: `A larger depth may reach it. ${reproduce}`,
  });
}

/** The result of a run a budget stopped in depth `depth`, after `cases` cases of it, with no counterexample found. */
function stoppedResult(set: Run, depth: number, done: Omit<ExhaustiveResult, 'passed' | 'message'>, cases: number, part: string): ExhaustiveResult {
  const stoppedBy = set.watch.stoppedBy!;
  const limit = stoppedBy === 'maxCases' ? `maxCases (${set.settings.maxCases})` : `timeLimit (${set.settings.timeLimit} ms)`;
  const full = depth === 0 ? 'no depth in full' : `${depths(0, depth - 1)} in full`;
  const rest = depths(depth, set.settings.depth);
  const message =
    `+++ OK, passed ${done.totalCases === 1 ? 'the 1 case' : `all ${done.totalCases} cases`} run before ${limit} stopped the run${part}: ${full}, and ${counted(cases, 'case')} of depth ${depth}. ` +
    `${rest[0]!.toUpperCase()}${rest.slice(1)} ${depth === set.settings.depth ? 'was' : 'were'} not checked in full.`;
  return { passed: true, ...done, stoppedBy, message };
}

/** Depths `from` to `to` as a message names them: one alone where they are one ("depth 6", not "depths 6 to 6"). */
const depths = (from: number, to: number): string => (from === to ? `depth ${from}` : `depths ${from} to ${to}`);

/**
 * @internal A depth's outcome with its found case, if any, run again on its total inputs (holes
 * never forced do not matter: the smallest ones stand for them), which the report shows.
 */
export function* foundAgain(set: Setup, depth: number, out: DepthOutcome): Steps<DepthOutcome> {
  if (!out.found || out.reported) return out;
  const inputs = out.found.total();
  try {
    return { ...out, again: yield rerun(out.found.outcome, inputs) };
  } catch (err) {
    throw inCase(err, set.spec, depth, inputs);
  }
}

/**
 * @internal What a run enumerates of a depth's tree: the roots, or with a shard its part (see
 * {@link CaseTree.part}): subtrees, and cases already run, of which the first that failed.
 */
export function* partOf(set: Setup, tree: CaseTree<Trial>, stats: EnumerationStats): Steps<{ subtrees: CaseNode[]; cases: EnumeratedCase<Trial>[]; failed?: EnumeratedCase<Trial> }> {
  const { shard } = set.settings;
  if (!shard) return { subtrees: tree.roots(), cases: [] };
  const { cases, subtrees } = yield* tree.part(shard.index, shard.count, stats);
  const failed = cases.filter((c) => c.outcome.failed).sort((a, b) => comparePaths(a.path(), b.path()))[0];
  return failed ? { subtrees, cases, failed } : { subtrees, cases };
}

/** @internal A tally of the passing cases a shard ran to find its part (see {@link partOf}), to which those enumerated after are added. */
export function partCoverage(set: Setup, part: { readonly cases: readonly EnumeratedCase<Trial>[] }): CoverageTally {
  const tally = new CoverageTally(set.spec.args.length);
  for (const c of part.cases) if (!c.outcome.failed) tally.add(c.outcome.resultDemand, c.outcome.actual);
  return tally;
}

/** The cases of one depth, in this thread. */
function* sequentialDepth(set: Run, depth: number): Steps<DepthOutcome> {
  const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const tree = treeOf(set, depth);
  const part = yield* partOf(set, tree, stats);
  const { subtrees, failed } = part;
  const coverage = partCoverage(set, part);
  const before = failed?.path();
  let end: DepthOutcome | undefined;
  const found = (c: EnumeratedCase<Trial>): boolean => {
    if (before && comparePaths(c.path(), before) > 0) return true;
    if (c.outcome.failed) end = { cases: stats.cases, runs: stats.runs, found: c };
    else {
      coverage.add(c.outcome.resultDemand, c.outcome.actual);
      if (set.watch.tick(depth, stats.cases)) end = { cases: stats.cases, runs: stats.runs, stopped: true };
    }
    return end !== undefined;
  };
  yield* tree.cases(subtrees, stats, { found });
  return yield* foundAgain(set, depth, end ?? { cases: stats.cases, runs: stats.runs, ...(failed ? { found: failed } : { coverage: coverage.figures() }) });
}

/**
 * @internal Checks a spec against a function on every case up to `options.depth`, smallest depth
 * first, in this thread, without throwing for a failure (a spec error, a shape mismatch, or a shape
 * that cannot be enumerated still throw). The public forms are `checkSpecExhaustive` and
 * `assertSpecExhaustive`, which run it with workers in src/parallel. `async`: an asynchronous check
 * (`checkSpecExhaustiveAsync`), whose cases are observed asynchronously, awaited one after the other.
 */
export function exhaustiveCheck(spec: AnySpec, fn: Fn, settings: Settings<'exhaustive'>): ExhaustiveResult;
export function exhaustiveCheck(spec: AnySpec, fn: Fn, settings: Settings<'exhaustive'>, async: boolean): ExhaustiveResult | Promise<ExhaustiveResult>;
export function exhaustiveCheck(spec: AnySpec, fn: Fn, settings: Settings<'exhaustive'>, async = false): ExhaustiveResult | Promise<ExhaustiveResult> {
  const run = { ...setup(spec, fn, settings, async), watch: watchRun(settings) };
  const driver = caseDriver(run, async);
  const depth = (d: number) => driver.drive(sequentialDepth(run, d));
  if (!async) return printable(drive(depthLoop(run), depth as (d: number) => DepthOutcome));
  return driveAsync(depthLoop(run), depth as (d: number) => Promise<DepthOutcome>).then(printable);
}

safeInstanceof(ExhaustiveCheckFailure);
