/**
 * An exhaustive check in worker threads: the cases of each depth enumerated subtree by subtree,
 * with the result of the run in this thread.
 * @module
 */
import { comparePaths, pathOf, totalInputs, type EnumerationStats } from '../engine/enumerate.ts';
import { printable } from '../spec/result.ts';
import { depthLoop, foundAgain, inCase, partCoverage, partOf, setup, treeOf, type DepthOutcome, type ExhaustiveResult, type Run } from '../spec/exhaustive.ts';
import { watchRun } from '../spec/run-watch.ts';
import type { DefinedCheck } from '../spec/registry.ts';
import type { Settings } from '../spec/options.ts';
import { fatalFailure, rebuildError, specTimeout, WorkerCrashError, workerOnlyMessage } from './errors.ts';
import { afterLastCase, graceOf, withWorkers, type Slot } from './pool.ts';
import { takeOne, workerCompare, type Outcome } from './protocol.ts';
import { caseDriver, driveAsync, type AnySpec, type CaseDriver, type Fn } from '../spec/run-case.ts';

/** What an exhaustive check run with workers found, with what the workers did. */
export interface ParallelExhaustiveResult extends ExhaustiveResult {
  /** Workers the run used, started or taken idle from an earlier run of a check of the same module, replacements of stopped or crashed workers included. */
  readonly workersStarted: number;
  /** Milliseconds until the first workers were ready (a few with idle workers of an earlier run). */
  readonly startupMs: number;
  /** Subtrees of the enumeration sent to the workers, over all depths. */
  readonly subtrees: number;
}

/** Why no case can be blamed for a timer that a worker found did not finish. */
const CASES_UNBLAMED = 'No case can be blamed: a worker runs the cases of a subtree back to back, and waits for the timers they left after them.';

/** The index of the first path in `queue` (in order) after `path`. */
function firstAfter(queue: readonly (readonly number[])[], path: readonly number[]): number {
  const i = queue.findIndex((q) => comparePaths(q, path) > 0);
  return i < 0 ? queue.length : i;
}

/** @internal An exhaustive check of `check` itself in worker threads (not another check of its spec and function). */
export async function parallelCheck(check: DefinedCheck<readonly unknown[], unknown>, settings: Settings<'exhaustive'>, async = false): Promise<ParallelExhaustiveResult> {
  const sent = workerCompare(check, settings);
  const set = setup(check.spec as unknown as AnySpec, check.fn as Fn, settings, async);
  // The cases run in this thread: those a shard runs to find its part, and those reported.
  const driver = caseDriver(set, set.async);
  const { timeout, forceBudget: budget, prune, unicode } = settings;
  // hunger[0]: how many workers wait for work; a busy worker that takes one of these splits its subtree.
  const hunger = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  // allowance[0]: how many more cases maxCases allows in the depth running, which the workers take each case from.
  const allowance = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const init = { moduleUrl: check.moduleUrl, name: check.name, budget, ...sent, prune, hunger: hunger.buffer, allowance: allowance.buffer, unicode, async };
  return withWorkers(settings.workers!, { init }, timeout, async (slots, info) => {
    // The clock of timeLimit starts with the first case, once the workers are ready.
    const run = { ...set, watch: watchRun(settings) };
    const totals = { subtrees: 0 };
    const result = await driveAsync(depthLoop(run), (depth) => parallelDepth(run, driver, depth, slots, { hunger, allowance }, totals));
    if (result.passed) await afterLastCase(slots, graceOf(timeout), 'case', CASES_UNBLAMED);
    return printable({ ...result, ...info(), subtrees: totals.subtrees });
  });
}

/** The first counterexample of a piece: a failing case (its path), an error, or a case (its index in the piece) that did not finish. */
type Event =
  | { readonly failed: number[]; readonly seen?: string }
  | { readonly thrown: Error }
  | { readonly kind: 'timeout'; readonly run: number }
  | { readonly kind: 'crash'; readonly error: string; readonly run: number }
  | { readonly kind: 'spec'; readonly error: Error; readonly run: number };

/** What a worker did with a piece: cases and runs up to its first counterexample, if any, or the pieces it handed back; the coverage counts of the cases that passed, when it answered. */
interface Answer {
  readonly cases: number;
  readonly runs: number;
  readonly counts?: readonly number[];
  readonly event?: Event;
  readonly rest?: number[][];
}

/** The answer in the outcome of a request for a piece; `run` is the index of the case the worker ran last (-1: none). */
function answer(out: Outcome<'cases'>, run: number, depth: number, timeout: number): Answer {
  if (out.kind === 'timeout') return { cases: 0, runs: 0, event: out.spec ? { kind: 'spec', error: specTimeout(timeout), run } : { kind: 'timeout', run } };
  if (out.kind === 'timer') {
    const thrown = new WorkerCrashError(`a timer that a case of a subtree of depth ${depth} left did not finish within the timeout (${out.ms} ms): it loops, or blocks. ${CASES_UNBLAMED}`);
    return { cases: 0, runs: 0, event: { thrown } };
  }
  if (out.kind === 'crash') {
    if (run >= 0) return { cases: 0, runs: 0, event: { kind: 'crash', error: out.error, run } };
    // Cases run back to back: an error the function raised asynchronously (in a timer) surfaces after the piece, and no case can be blamed.
    const thrown = new WorkerCrashError(`a worker crashed after enumerating a subtree of depth ${depth}, and no case can be blamed (did the function raise an error asynchronously, e.g. in a timer?): ${out.error}`);
    return { cases: 0, runs: 0, event: { thrown } };
  }
  const { cases, runs, counts, thrown, failed, seen, rest } = out.data;
  return { cases, runs, counts, ...(thrown ? { event: { thrown: rebuildError(thrown) } } : failed ? { event: { failed, ...(seen !== undefined ? { seen } : {}) } } : rest ? { rest } : {}) };
}

/**
 * The cases of one depth, by the workers. A piece of work is a subtree of the enumeration tree,
 * named by its path; the first pieces are the roots. A worker enumerates its subtree in order, up
 * to its first failure, unless another worker waits for work: then it stops and hands back the
 * subtrees left on its stack, which come after what it enumerated, in order. So the subtrees
 * enumerated partition the cases of the depth, in order; the first counterexample is the first
 * one of the first subtree that has one. Subtrees after it are cancelled.
 */
async function parallelDepth(set: Run, driver: CaseDriver, depth: number, slots: readonly Slot[], { hunger, allowance }: Record<'hunger' | 'allowance', Int32Array>, totals: { subtrees: number }): Promise<DepthOutcome> {
  const tree = treeOf(set, depth);
  const partStats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const part = await driver.drive(partOf(set, tree, partStats));
  const queue = part.subtrees.map(pathOf); // pieces not yet sent, in order
  const done: ({ path: number[] } & Answer)[] = [];
  const running = new Map<Slot, number[]>();
  // A counterexample among the cases a shard ran to find its part counts as a piece of its own.
  let best: (typeof done)[number] | undefined = part.failed && { path: part.failed.path(), cases: 0, runs: 0, event: { failed: part.failed.path() } };
  // The cases of the depth run so far, those this thread ran to find the shard's part included: the count maxCases sees.
  let cases = partStats.cases;
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
        // With nothing running, every case taken from maxCases' allowance was counted, or lost with a piece that failed or was cancelled.
        if (running.size === 0) Atomics.store(allowance, 0, Math.min(set.watch.casesLeft(cases), 2 ** 31 - 1));
        // With the allowance taken, pieces wait for those running, which may give cases back (see the worker), or reach maxCases.
        const path = Atomics.load(allowance, 0) > 0 ? queue.shift() : undefined;
        if (path === undefined) {
          if (running.size === 0) {
            // Pieces left with nothing running: the allowance is spent, and maxCases stops the depth here (it is not done).
            if (queue.length > 0 && !stopped) stopped = set.watch.tick(depth, cases, true);
            return notify();
          }
          const hungry = queue.length === 0; // waiting for the allowance, it asks no worker to split its subtree
          if (hungry) Atomics.add(hunger, 0, 1);
          await change;
          if (hungry) takeOne(hunger);
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
          // A budget ran out: no more pieces, and those running are cancelled (maxCases has stopped them, and their cases count).
          stopped = true;
          queue.length = 0;
          if (set.watch.stoppedBy !== 'maxCases') for (const other of running.keys()) other.state[2] = 1;
        }
        notify();
      }
    }),
  );
  const before = best ? done.filter((p) => comparePaths(p.path, best!.path) < 0) : done;
  const counts = { cases: partStats.cases + before.reduce((n, p) => n + p.cases, 0), runs: partStats.runs + before.reduce((n, p) => n + p.runs, 0) };
  if (stopped && !best) return { ...counts, stopped };
  if (queue.length > 0 && !best) throw new Error(`strictcheck: internal error: depth ${depth} ended with ${queue.length} subtrees unchecked and no budget run out`);
  if (!best) {
    // The pieces partition the cases: the sum of their counts is the count of the run in this thread.
    const coverage = partCoverage(set, part);
    for (const p of done) coverage.addCounts(p.counts!);
    return { ...counts, coverage: coverage.figures() };
  }
  const e = best.event!;
  if ('thrown' in e) throw e.thrown;
  if ('failed' in e) {
    // Run the failing case again here, where the function is, to report it as a sequential run does.
    const found = (await driver.drive((function* () {
      return yield* tree.expand(yield* tree.nodeAt(e.failed), { cases: 0, runs: 0, refinements: 0 });
    })())).case!;
    const seen = e.seen;
    // A case that passes here failed in the worker only: the report shows it as the worker saw it.
    const reported = !found.outcome.failed && seen !== undefined ? { reported: (where: string) => ({ message: workerOnlyMessage(where, seen) }) } : {};
    return driver.drive(foundAgain(set, depth, { cases: counts.cases + best.cases, runs: counts.runs + best.runs, found, ...reported }));
  }
  // The case that did not finish: enumerate its piece here up to it, without running it.
  const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
  const unrun = await driver.drive((function* () {
    const start = yield* tree.nodeAt(best.path);
    return (yield* tree.cases([start], stats, { stop: () => stats.runs === e.run }))[0] ?? start;
  })());
  const inputs = totalInputs(unrun);
  if (e.kind === 'spec') throw inCase(e.error, set.spec, depth, inputs);
  const fatal = e.kind === 'timeout' ? { kind: 'timeout' as const } : { kind: 'crash' as const, error: e.error };
  return { cases: counts.cases + stats.cases + 1, runs: counts.runs + stats.runs + 1, reported: (where) => fatalFailure(set.spec, inputs, fatal, slots[0]!.timeout, where, set.settings.unicode, 'case') };
}

