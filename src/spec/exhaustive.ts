/**
 * Exhaustive strictness checking up to a depth (SmallCheck / Lazy SmallCheck): every input of
 * depth at most `d`, every non-strict function argument of the enumerated family, every demand
 * on the result up to `d`, by iterative deepening from depth 0; with demand-driven pruning of
 * the inputs. See `engine/series.ts` for the depth of values and functions, and
 * `engine/enumerate.ts` for contexts and pruning.
 * @module
 */
import { CaseTree, comparePaths, pathOf, totalInputs, type CaseNode, type EnumeratedCase, type EnumerationStats } from '../engine/enumerate.ts';
import { afterLastCase, fatalFailure, workerOnlyMessage, graceOf, parseShard, rebuildError, registeredCheck, specTimeout, workerCompare, type DefinedCheck, withWorkers, workerSettings, WorkerCrashError, type Outcome, type ParallelOptions, type Slot } from '../engine/parallel.ts';
import { inhabited, NoSeriesError } from '../engine/series.ts';
import { showOption } from '../engine/options.ts';
import { carryResult, commonSettings, comparisons, counterexampleOf, DEFAULTS, failureHeader, OPTION_NAMES, printable, refuseWorkerOptions, replayWith, rerunContext, runCase, report, blameCase, type AnySpec, type CheckOptions, type Counterexample, type Fn, type Trial } from './check.ts';
import { checkArity, type Spec } from './spec.ts';
import { checkWatchOptions, watchRun, type RunWatch, type WatchOptions } from './run-watch.ts';
import { argumentName } from '../demand/observe.ts';
import { coverageVerdict, CoverageTally, type Coverage } from './coverage.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** Options of the exhaustive checks (`assertSpecExhaustive`, `checkSpecExhaustive`). */
export interface ExhaustiveOptions extends Pick<CheckOptions, 'compare' | 'forceBudget' | 'unicode'>, WatchOptions {
  /**
   * Minimum shares of the cases of the deepest depth in which the result or an argument was not,
   * partly or fully forced, as for random checks (see `CheckOptions.coverage`): a run that found
   * no counterexample fails when its cases fall short. Counted without workers only.
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
  readonly workers?: ParallelOptions['workers'] | undefined;
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
   * not forced, partly and fully forced (without workers; a case pruning ran stands for all the
   * fillings of what it left unforced, and counts once).
   */
  readonly coverage?: Coverage;
}

/** What an exhaustive check run with workers found, with what the workers did. */
export interface ParallelExhaustiveResult extends ExhaustiveResult {
  /** Workers started, replacements of stopped or crashed workers included. */
  readonly workersStarted: number;
  /** Milliseconds until the first workers were ready. */
  readonly startupMs: number;
  /** Subtrees of the enumeration sent to the workers, over all depths. */
  readonly subtrees: number;
}

/** Thrown by `assertSpecExhaustive` on a counterexample; its message holds the diagram. */
export class ExhaustiveCheckFailure extends Error {
  /** Always `'ExhaustiveCheckFailure'`, telling an exhaustive check's failure from a random one's (`StrictCheckFailure`). */
  override name = 'ExhaustiveCheckFailure';
  /** The failed check's result, with its counterexample. */
  declare readonly result: ExhaustiveResult;
  constructor(result: ExhaustiveResult) {
    super(result.message);
    carryResult(this, result);
  }
}

/** What a run needs, from the options. */
interface Setup {
  readonly spec: AnySpec;
  readonly fn: Fn;
  readonly maxDepth: number;
  readonly budget: number;
  readonly compare: ReturnType<typeof comparisons>;
  readonly unicode: boolean;
  readonly prune: boolean;
  readonly shard: { readonly index: number; readonly count: number } | undefined;
  /** The options as given, for the line that says how to run a failure again. */
  readonly options: ExhaustiveOptions;
  /** The run's budgets and progress (with workers, started again once they are ready). */
  readonly watch: RunWatch;
}

function setup(s: AnySpec, fn: Fn, options: ExhaustiveOptions): Setup {
  checkArity(s, fn);
  // The other options first: a misspelt depth is named as such, not as a depth missing.
  const settings = commonSettings(s, fn, options, OPTION_NAMES.exhaustive);
  checkWatchOptions(options);
  const maxDepth = options.depth;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new RangeError(`depth must be a non-negative integer, got ${showOption(maxDepth)}`);
  if (options.workers === undefined) refuseWorkerOptions(options, ['timeout']);
  // Workers report the cases they ran, not how far each forced its values.
  else if (options.coverage !== undefined) throw new RangeError('coverage in the exhaustive mode is counted without workers: leave out workers, or coverage (a random check counts it with workers too)');
  // An argument without a value that deep would make a run of no case, which would pass.
  s.args.forEach((shape, i) => {
    const name = argumentName(s.names, i);
    if (inhabited(shape, maxDepth, name)) return;
    throw new NoSeriesError(
      `cannot enumerate ${name} (shape ${shape.name}): it has no value of depth at most ${maxDepth}, so no case would run; give a larger depth, or, for a type without a finite value (a stream, which has none at any depth), a series with withSeries(shape, (depth) => values)`,
    );
  });
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  return { spec: s, fn, maxDepth, ...settings, prune: options.prune ?? true, shard, options, watch: watchRun(options) };
}

/**
 * @internal The enumeration tree of one depth. A run that forces a hole (in the function, the
 * context, the spec or the comparison) is refined by the tree; a spec error names its case.
 * `phase` is told who runs (see runCase).
 */
export function treeOf(set: Pick<Setup, 'spec' | 'fn' | 'budget' | 'compare' | 'prune'> & { readonly phase?: Parameters<typeof runCase>[6] }, depth: number): CaseTree<Trial> {
  const run = (inputs: unknown[], context: (v: unknown) => void) => runCase(set.spec, set.fn, inputs, context, set.budget, set.compare, set.phase);
  return new CaseTree(set.spec.args, depth, run, { prune: set.prune, names: set.spec.names, result: set.spec.result, blame: (err, inputs) => inCase(err, set.spec, depth, inputs) });
}

/** What one depth found: its cases and runs up to the first counterexample, if any (a case that failed, or one that did not finish in a worker). */
interface DepthOutcome {
  readonly cases: number;
  readonly runs: number;
  readonly found?: EnumeratedCase<Trial>;
  /** Whether a budget stopped the run in this depth. */
  readonly stopped?: boolean;
  /** Without workers: how far the cases forced the result and each argument. */
  readonly coverage?: Coverage;
  /** With workers: the found case's diagram as its worker drew it (it may pass in this thread). */
  readonly seen?: string;
  readonly fatal?: { readonly inputs: readonly unknown[]; readonly kind: 'timeout' } | { readonly inputs: readonly unknown[]; readonly kind: 'crash'; readonly error: string };
}

/** A spec error or a shape mismatch, naming its case (in the worker that ran it, if any) as random checking names its trial. */
function inCase(err: unknown, spec: AnySpec, depth: number, inputs: readonly unknown[]): unknown {
  return blameCase(err, spec, () => `exhaustive, depth ${depth}`, inputs);
}

/** Adds a depth's outcome to the totals: the result if it ends the run. */
function conclude(set: Setup, depth: number, out: DepthOutcome, totals: { cases: number; runs: number }, timeout: number): ExhaustiveResult | undefined {
  totals.cases += out.cases;
  totals.runs += out.runs;
  const { spec, fn, budget, compare, unicode } = set;
  const totalCases = totals.cases;
  const done = { depth, cases: out.cases, totalCases, runs: totals.runs };
  const part = set.shard ? `, shard ${set.shard.index + 1}/${set.shard.count}` : '';
  const where = `exhaustive, depth ${depth}${part}, after ${totalCases} case${totalCases === 1 ? '' : 's'}`;
  if (out.fatal) return { passed: false, ...done, ...fatalFailure(spec, out.fatal.inputs, out.fatal, timeout, where, unicode, 'case') };
  if (out.found) {
    const c = out.found;
    // Holes never forced do not matter: show the smallest total inputs (forcing a hole would throw), run again for the report.
    const inputs = c.total();
    let again: Trial;
    try {
      again = runCase(spec, fn, inputs, rerunContext(c.outcome), budget, compare);
    } catch (err) {
      throw inCase(err, spec, depth, inputs);
    }
    if (!c.outcome.failed && out.seen !== undefined) return { passed: false, ...done, message: workerOnlyMessage(where, out.seen) };
    const shown = again.failed ? again : { ...c.outcome, inputs };
    const reproduce = `Reproduce with the options ${replayWith(['depth', String(depth)], set.options)}.`;
    return { passed: false, ...done, counterexample: counterexampleOf(shown), message: `${report(spec, shown, failureHeader(shown, where, spec), unicode)}\n${reproduce}` };
  }
  if (out.stopped) return stoppedResult(set, depth, done, out.cases, part);
  if (depth < set.maxDepth) return undefined;
  const passedAs = `all ${out.cases} case${out.cases === 1 ? '' : 's'} of depth ${depth}${part}`;
  const passed: ExhaustiveResult = { passed: true, ...done, message: `+++ OK, passed ${passedAs} (${totalCases} cases and ${totals.runs} runs over depths 0 to ${depth}).` };
  if (!out.coverage) return passed;
  return coverageVerdict(passed, out.coverage, set.options.coverage, spec.names, {
    unit: 'case',
    ran: out.cases > 0,
    passedAs: `${passedAs} passed`,
    again: `A larger depth may reach it. Reproduce with the options ${replayWith(['depth', String(depth)], set.options)}.`,
  });
}

/** The result of a run a budget stopped in depth `depth`, after `cases` cases of it, with no counterexample found. */
function stoppedResult(set: Setup, depth: number, done: Omit<ExhaustiveResult, 'passed' | 'message'>, cases: number, part: string): ExhaustiveResult {
  const stoppedBy = set.watch.stoppedBy!;
  const limit = stoppedBy === 'maxCases' ? `maxCases (${set.options.maxCases})` : `timeLimit (${set.options.timeLimit} ms)`;
  const full = depth === 0 ? 'no depth in full' : `depths 0 to ${depth - 1} in full`;
  const message =
    `+++ OK, passed all ${done.totalCases} cases run before ${limit} stopped the run${part}: ${full}, and ${cases} case${cases === 1 ? '' : 's'} of depth ${depth}. ` +
    `Depths ${depth} to ${set.maxDepth} were not checked in full.`;
  return { passed: true, ...done, stoppedBy, message };
}

/**
 * What a run enumerates of a depth's tree: the roots, or with a shard its part (see
 * {@link CaseTree.part}): subtrees, and cases already run, of which the first that failed.
 */
function partOf(set: Setup, tree: CaseTree<Trial>, stats: EnumerationStats): { subtrees: CaseNode[]; cases: EnumeratedCase<Trial>[]; failed?: EnumeratedCase<Trial> } {
  if (!set.shard) return { subtrees: tree.roots(), cases: [] };
  const { cases, subtrees } = tree.part(set.shard.index, set.shard.count, stats);
  const failed = cases.filter((c) => c.outcome.failed).sort((a, b) => comparePaths(a.path(), b.path()))[0];
  return failed ? { subtrees, cases, failed } : { subtrees, cases };
}

/** The cases of one depth, in this thread. */
function sequentialDepth(set: Setup, depth: number): DepthOutcome {
  const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const tree = treeOf(set, depth);
  const { subtrees, cases, failed } = partOf(set, tree, stats);
  const coverage = new CoverageTally(set.spec.args.length);
  for (const c of cases) if (!c.outcome.failed) coverage.add(c.outcome.resultDemand, c.outcome.actual);
  const before = failed?.path();
  for (const c of tree.cases(subtrees, stats)) {
    if (before && comparePaths(c.path(), before) > 0) break;
    if (c.outcome.failed) return { cases: stats.cases, runs: stats.runs, found: c };
    coverage.add(c.outcome.resultDemand, c.outcome.actual);
    if (set.watch.tick(depth, stats.cases)) return { cases: stats.cases, runs: stats.runs, stopped: true };
  }
  return { cases: stats.cases, runs: stats.runs, ...(failed ? { found: failed } : { coverage: coverage.figures() }) };
}

/**
 * @internal Checks a spec against a function on every case up to `options.depth`, smallest depth
 * first, without throwing for a failure (a spec error, a shape mismatch, or a shape that cannot be
 * enumerated still throw); with `workers`, in worker threads. The public forms are
 * `checkSpecExhaustive` and `assertSpecExhaustive`.
 */
export function exhaustiveCheck<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers: number | 'all' }): Promise<ParallelExhaustiveResult>;
export function exhaustiveCheck<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions & { readonly workers?: undefined }): ExhaustiveResult;
export function exhaustiveCheck<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions): ExhaustiveResult | Promise<ParallelExhaustiveResult> {
  // With workers, a promise: a spec and function never defined as a check reject it too.
  if (options.workers !== undefined) return Promise.resolve().then(() => parallelCheck(registeredCheck(s as unknown as AnySpec, fn as Fn, 'checkSpecExhaustive'), options));
  const set = setup(s as unknown as AnySpec, fn as Fn, options);
  const totals = { cases: 0, runs: 0 };
  try {
    for (let depth = 0; ; depth++) {
      const out = sequentialDepth(set, depth);
      set.watch.depthDone(depth, out.cases);
      const result = conclude(set, depth, out, totals, 0);
      if (result) return printable(result);
    }
  } finally {
    set.watch.done();
  }
}

// ---------------------------------------------------------------------------------------------
// With workers

/** The index of the first path in `queue` (in order) after `path`. */
function firstAfter(queue: readonly (readonly number[])[], path: readonly number[]): number {
  const i = queue.findIndex((q) => comparePaths(q, path) > 0);
  return i < 0 ? queue.length : i;
}

/** @internal Decrements a shared counter if it is positive: whether it did. */
export function takeOne(counter: Int32Array): boolean {
  for (let h = Atomics.load(counter, 0); h > 0; h = Atomics.load(counter, 0)) if (Atomics.compareExchange(counter, 0, h, h - 1) === h) return true;
  return false;
}

/** @internal An exhaustive check of `check` itself in worker threads (not another check of its spec and function). */
export async function parallelCheck(check: DefinedCheck<readonly unknown[], unknown>, options: ExhaustiveOptions): Promise<ParallelExhaustiveResult> {
  const { workers } = workerSettings(check, options);
  const set = setup(check.spec as unknown as AnySpec, check.fn as Fn, options);
  const timeout = options.timeout ?? DEFAULTS.timeout;
  // hunger[0]: how many workers wait for work; a busy worker that takes one of these splits its subtree.
  const hunger = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const init = { moduleUrl: check.moduleUrl, name: check.name, budget: set.budget, ...workerCompare(check, options), prune: set.prune, hunger: hunger.buffer, unicode: set.unicode };
  return withWorkers(workers, { init }, timeout, async (slots, info) => {
    // The clock of timeLimit starts with the first case, once the workers are ready.
    const run = { ...set, watch: watchRun(options) };
    const totals = { cases: 0, runs: 0, subtrees: 0 };
    try {
      for (let depth = 0; ; depth++) {
        const out = await parallelDepth(run, depth, slots, hunger, totals);
        run.watch.depthDone(depth, out.cases);
        const result = conclude(run, depth, out, totals, timeout);
        if (result?.passed) await afterLastCase(slots, graceOf(timeout), 'case');
        if (result) return printable({ ...result, ...info(), subtrees: totals.subtrees });
      }
    } finally {
      run.watch.done();
    }
  });
}

/** The first counterexample of a piece: a failing case (its path), an error, or a case (its index in the piece) that did not finish. */
type Event =
  | { readonly failed: number[]; readonly seen?: string }
  | { readonly thrown: Error }
  | { readonly kind: 'timeout'; readonly run: number }
  | { readonly kind: 'crash'; readonly error: string; readonly run: number }
  | { readonly kind: 'spec'; readonly error: Error; readonly run: number };

/** What a worker did with a piece: cases and runs up to its first counterexample, if any, or the pieces it handed back. */
interface Answer {
  readonly cases: number;
  readonly runs: number;
  readonly event?: Event;
  readonly rest?: number[][];
}

/** The answer in the outcome of a request for a piece; `run` is the index of the case the worker ran last (-1: none). */
function answer(out: Outcome, run: number, depth: number, timeout: number): Answer {
  if (out.kind === 'timeout') return { cases: 0, runs: 0, event: out.spec ? { kind: 'spec', error: specTimeout(timeout), run } : { kind: 'timeout', run } };
  if (out.kind === 'crash') {
    if (run >= 0) return { cases: 0, runs: 0, event: { kind: 'crash', error: out.error, run } };
    // Cases run back to back: an error the function raised asynchronously (in a timer) surfaces after the piece, and no case can be blamed.
    const thrown = new WorkerCrashError(`a worker crashed after enumerating a subtree of depth ${depth}, and no case can be blamed (did the function raise an error asynchronously, e.g. in a timer?): ${out.error}`);
    return { cases: 0, runs: 0, event: { thrown } };
  }
  const { cases, runs, thrown, failed, seen, rest } = out.data;
  return { cases, runs, ...(thrown ? { event: { thrown: rebuildError(thrown) } } : failed ? { event: { failed, seen } } : { rest }) };
}

/**
 * The cases of one depth, by the workers. A piece of work is a subtree of the enumeration tree,
 * named by its path; the first pieces are the roots. A worker enumerates its subtree in order, up
 * to its first failure, unless another worker waits for work: then it stops and hands back the
 * subtrees left on its stack, which come after what it enumerated, in order. So the subtrees
 * enumerated partition the cases of the depth, in order; the first counterexample is the first
 * one of the first subtree that has one. Subtrees after it are cancelled.
 */
async function parallelDepth(set: Setup, depth: number, slots: readonly Slot[], hunger: Int32Array, totals: { cases: number; subtrees: number }): Promise<DepthOutcome> {
  const tree = treeOf(set, depth);
  const partStats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const part = partOf(set, tree, partStats);
  const queue = part.subtrees.map(pathOf); // pieces not yet sent, in order
  const done: ({ path: number[] } & Answer)[] = [];
  const running = new Map<Slot, number[]>();
  // A counterexample among the cases a shard ran to find its part counts as a piece of its own.
  let best: (typeof done)[number] | undefined = part.failed && { path: part.failed.path(), cases: 0, runs: 0, event: { failed: part.failed.path() } };
  let cases = 0;
  let stopped = false;
  let changed!: () => void;
  let change = new Promise<void>((r) => (changed = r));
  const notify = () => {
    changed();
    change = new Promise<void>((r) => (changed = r));
  };
  Atomics.store(hunger, 0, 0);
  await Promise.all(
    slots.map(async (slot) => {
      for (;;) {
        if (best && queue.length > 0 && comparePaths(queue[0]!, best.path) > 0) queue.length = 0; // only pieces before the first counterexample matter
        const path = queue.shift();
        if (path === undefined) {
          if (running.size === 0) return notify();
          Atomics.add(hunger, 0, 1);
          await change;
          takeOne(hunger);
          continue;
        }
        running.set(slot, path);
        slot.state[2] = 0;
        totals.subtrees++;
        const out = await slot.request({ type: 'cases', depth, path });
        running.delete(slot);
        if (out.kind === 'reply' && out.data.cancelled) {
          notify();
          continue;
        }
        const piece = { path, ...answer(out, slot.state[1]!, depth, slot.timeout) };
        for (const p of piece.rest ?? []) queue.splice(firstAfter(queue, p), 0, p);
        done.push(piece);
        if (piece.event && (!best || comparePaths(path, best.path) < 0)) {
          best = piece;
          for (const [other, p] of running) if (comparePaths(p, path) > 0) other.state[2] = 1; // cancel
        }
        cases += piece.cases;
        if (!stopped && set.watch.tick(depth, cases, true)) {
          // A budget ran out: no more pieces, and those running are cancelled.
          stopped = true;
          queue.length = 0;
          for (const other of running.keys()) other.state[2] = 1;
        }
        notify();
      }
    }),
  );
  const before = best ? done.filter((p) => comparePaths(p.path, best!.path) < 0) : done;
  const counts = { cases: partStats.cases + before.reduce((n, p) => n + p.cases, 0), runs: partStats.runs + before.reduce((n, p) => n + p.runs, 0) };
  if (!best) return stopped ? { ...counts, stopped } : counts;
  const e = best.event!;
  if ('thrown' in e) throw e.thrown;
  if ('failed' in e) {
    // Run the failing case again here, where the function is, to report it as a sequential run does.
    const found = tree.expand(tree.nodeAt(e.failed), { cases: 0, runs: 0, refinements: 0 }).case!;
    return { cases: counts.cases + best.cases, runs: counts.runs + best.runs, found, ...(e.seen !== undefined ? { seen: e.seen } : {}) };
  }
  // The case that did not finish: enumerate its piece here up to it, without running it.
  const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const start = tree.nodeAt(best.path);
  const it = tree.cases([start], stats, () => stats.runs === e.run);
  let r = it.next();
  while (!r.done) r = it.next();
  const inputs = totalInputs(r.value[0] ?? start);
  if (e.kind === 'spec') throw inCase(e.error, set.spec, depth, inputs);
  return { cases: counts.cases + stats.cases + 1, runs: counts.runs + stats.runs + 1, fatal: e.kind === 'timeout' ? { inputs, kind: 'timeout' } : { inputs, kind: 'crash', error: e.error } };
}

safeInstanceof(ExhaustiveCheckFailure);
