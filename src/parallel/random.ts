/**
 * A random check in worker threads (after QuickerCheck, Krook, Svensson, Hughes, Claessen 2024):
 * trials striped over the workers by index, each with its own size, the same verdict and
 * counterexample as the run in this thread; deterministic or greedy parallel shrinking.
 * @module
 */
import { unforced } from '../demand/demand.ts';
import { checkCall } from '../spec/spec.ts';
import { CoverageTally } from '../spec/coverage.ts';
import { indicesOf, WHOLE_RUN } from '../spec/shard.ts';
import type { DefinedCheck } from '../spec/registry.ts';
import { failedAfter, failureSteps, passedResult, type RandomRun } from '../spec/random.ts';
import { inTrial, replayOptions } from '../spec/replay.ts';
import { printable, type CheckResult } from '../spec/result.ts';
import { caseDriver, type AnySpec, type Fn, type Steps, type Trial } from '../spec/run-case.ts';
import { failsAlike, rerun, shrinkCandidates } from '../spec/shrink-case.ts';
import { sizeOf, trialCase } from '../spec/trial-case.ts';
import { MAX_TRIALS, type Settings } from '../spec/options.ts';
import { fatalFailure, rebuildError, specTimeout, WorkerCrashError, workerOnlyMessage } from './errors.ts';
import { crashedAfterLast, drained, graceOf, withWorkers, type Slot, type SlotSetup } from './pool.ts';
import { lower, workerCompare, type Late, type Outcome, type Reply, type RequestBody } from './protocol.ts';

/** A check result of a parallel run, with what the workers did. */
export interface ParallelCheckResult extends CheckResult {
  /** Trials the workers ran to the end, including any past the reported failure (`trials` counts only those up to it, as a sequential run). */
  readonly executed: number;
  /** Workers the run used, started or taken idle from an earlier run of a check of the same module, replacements of stopped or crashed workers included. */
  readonly workersStarted: number;
  /** Milliseconds until the first workers were ready (a few with idle workers of an earlier run). */
  readonly startupMs: number;
}

function nth<T>(it: Iterable<T>, j: number): T | undefined {
  let k = 0;
  for (const x of it) if (k++ === j) return x;
  return undefined;
}

/** Trials finished, in order: `at(0)`, …, `at(count - 1)` (a stripe's, kept as one, as only `onTrial` reads them one by one). */
interface Finished {
  readonly at: (q: number) => number;
  readonly count: number;
}

/** What the trials of a run came to: the first failure, if any, the trials finished, and the coverage of those that passed. */
interface Trials {
  best?: Event;
  readonly completed: Finished[];
  readonly coverage: CoverageTally;
}

type Event = { i: number; kind: 'failed' } | { i: number; kind: 'thrown'; error: Error } | { i: number; kind: 'timeout' | 'timer' } | { i: number; kind: 'crash'; error: string; making?: true };

/** The event of trial `i`, whose request ended without a reply: a timeout (the spec's is a spec error), a timer it left that did not finish, or a crash. */
function unfinished(i: number, out: Exclude<Outcome, { kind: 'reply' }>, timeout: number): Event {
  if (out.kind === 'crash') return { i, kind: 'crash', error: out.error, ...(out.making && { making: out.making }) };
  if (out.kind === 'timer') return { i, kind: 'timer' };
  return out.spec ? { i, kind: 'thrown', error: specTimeout(timeout) } : { i, kind: 'timeout' };
}

/**
 * `out` if it is a crash or a timer that did not finish, which a case before the one running may
 * have caused (not a crash while a case was being made: that is the case's own, making is synchronous).
 */
function lateOf(out: Outcome): Late | undefined {
  return (out.kind === 'crash' && !out.making) || out.kind === 'timer' ? out : undefined;
}

/** `out` if it may be an earlier case's rather than its request's own: {@link lateOf}, in a worker that had answered requests before. */
function suspect(out: Outcome): Late | undefined {
  const late = lateOf(out);
  return late && !late.alone ? late : undefined;
}

/**
 * The error of trial `i`, which ran again alone in a fresh worker did neither of what `late` says
 * its worker did at it (or, `last`, after it, the last trial it ran, once the run had passed): no
 * trial can be blamed.
 */
function unblamed(i: number, seed: number, grace: number, late: Late, last = false): WorkerCrashError {
  const at = last ? `after trial ${i + 1} (seed ${seed}), the last it ran, once the run had passed` : `at trial ${i + 1} (seed ${seed})`;
  const what = late.kind === 'timer' ? `a timer ran past the timeout (${late.ms} ms) in a worker ${at}` : `a worker crashed ${at}`;
  const alone = late.kind === 'timer' ? 'that trial leaves no timer that does not finish' : 'that trial does not crash';
  const earlier = late.kind === 'timer' ? `left the timer (it loops, or blocks)` : `raised the error asynchronously (e.g. in a timer). The worker's error: ${late.error}`;
  return new WorkerCrashError(
    `${what}, but no trial can be blamed: run again alone in a fresh worker, which waited up to ${grace} ms for the timers it set, ${alone}. ` +
      `A case the worker ran before (a trial of this run up to trial ${i}, or, in a worker kept from an earlier run, one of that run's) probably ${earlier}`,
  );
}

/** What a run reports of trial `e.i`, whose case a worker never finished making. */
function neverMade(e: Event & { kind: 'crash' }, seed: number): string {
  return (
    `trial ${e.i + 1} (seed ${seed}): ${e.error}. A generator of its inputs probably never ends (an arbitrary given to withArbitrary, ` +
    `or a function one of them calls, for that size). Its inputs are not shown: making them again here would not end either.`
  );
}

/** The event of trial `i`, the one after those of a stripe that passed (`data.ran`): none if the stripe stopped without a failure. */
function replied(i: number, data: Reply<'trials'>): Event | undefined {
  return data.thrown ? { i, kind: 'thrown', error: rebuildError(data.thrown) } : data.failed ? { i, kind: 'failed' } : undefined;
}

/**
 * The steps that report a failure found in the workers: its case run again here from `start`, then
 * the candidates of `path`, each failing alike, then the report of the last, as a run in this thread
 * makes it; or undefined if one of them does not fail alike here (the function behaves differently in a worker).
 */
function* replayedFailure(run: RandomRun, start: ReturnType<typeof trialCase>, path: readonly number[], count: number): Steps<CheckResult | undefined> {
  let current: Trial = yield start;
  if (!current.failed) return undefined;
  for (const j of path) {
    const c = nth(shrinkCandidates(run.spec, current), j)!;
    const next: Trial = yield rerun(c);
    // Each step failed alike in a worker; here it may not, if the function behaves differently there.
    if (!failsAlike(next, current.error !== undefined)) return undefined;
    current = next;
  }
  return yield* failureSteps(run, current, count, path.length);
}

/**
 * @internal A random check of `check` itself in worker threads (not another check of its spec and
 * function); `async`: an asynchronous check (checkSpecAsync), each of whose trials a worker awaits
 * before it starts the next.
 */
export async function runChecked(check: DefinedCheck<readonly unknown[], unknown>, settings: Settings<'random'>, async = false): Promise<ParallelCheckResult> {
  const spec = check.spec as unknown as AnySpec;
  const fn = check.fn as Fn;
  checkCall(spec, fn, async);
  const sent = workerCompare(check, settings);
  const run = { spec, fn, settings };
  const { forceBudget: budget, unicode, trials, maxSize, seed, timeout, maxShrinkAttempts: maxAttempts, maxShrinkTimeouts: maxFatal } = settings;
  const n = settings.workers!; // checks.ts runs a check here only with workers
  const greedy = settings.shrinking === 'greedy';
  const indices = indicesOf(trials, settings.shard);

  const setup: SlotSetup = { init: { moduleUrl: check.moduleUrl, name: check.name, seed, trials, maxSize, budget, async, ...sent } };
  const grace = graceOf(timeout);
  /**
   * Sends a shrink candidate, `m`, to `slot`. A crash (or a timer that does not finish) that is
   * not surely the case's own (see {@link suspect}) may be an earlier case's, raised
   * asynchronously later than the worker waited for it: the case is then blamed only if it crashes
   * again alone, in a fresh worker (the crashed one is replaced) that waits for the timers it set
   * (unless `current` says its outcome is no longer wanted).
   */
  const requestOwn = async (slot: Slot, m: RequestBody<'cand'>, current: () => boolean): Promise<Outcome<'cand'>> => {
    const out = await slot.request(m);
    if (!suspect(out) || !current()) return out;
    return slot.request({ ...m, grace });
  };
  const { index: firstIndex, count: shards } = settings.shard ?? WHOLE_RUN;
  /** A request for trial `i` alone, which the worker skips if it is past the smallest failing trial known (`bound`). */
  const oneTrial = (i: number, bound: Int32Array) => ({ type: 'trials' as const, first: i, step: 1, count: 1, bound: bound.buffer as SharedArrayBuffer });
  /** The event of trial `i` (undefined if it passed) from the outcome of the request that ran it. */
  const eventOf = (i: number, out: Outcome<'trials'>): Event | undefined => (out.kind === 'reply' ? replied(i, out.data) : unfinished(i, out, timeout));
  /**
   * The event of trial `i`, the last a worker ran one by one, after which, the run passed, `late`
   * happened in it: a timer that does not finish is blamed on the trial if it leaves one again alone
   * in a fresh worker that waits for the timers it set. Else, or for a crash, the run fails with an
   * error that says no trial can be blamed.
   */
  const blameAfterLast = async (slot: Slot, late: Late, i: number | undefined, bound: Int32Array): Promise<Event> => {
    if (late.kind !== 'timer' || i === undefined) throw crashedAfterLast(late, grace, 'trial');
    const out = await slot.request({ ...oneTrial(i, bound), grace });
    const ev = eventOf(i, out);
    if (!ev) throw unblamed(i, seed, grace, late, true);
    return ev;
  };
  /**
   * Runs the trials, worker k the positions k, k + n, … (each trial with its own size). Batched
   * (`batch`), each worker runs its stripe in one request, in a loop, and the run waits for the
   * timers they left once they have all replied; `crashed` if a worker crashed, or ran a timer
   * that did not finish, which no one trial of the stripe can be blamed for. Else one trial a
   * request, each given a turn of the event loop, so that an error the function raises
   * asynchronously crashes the worker during the trial that caused it (and a timer that loops
   * runs then): a crash that is not surely the trial's own (see {@link suspect}) may be an
   * earlier trial's, raised later than the worker waited for it, and is blamed on the trial only
   * if it crashes again alone in a fresh worker (the crashed one is replaced) that waits for the
   * timers it set; if it finishes there, that is its outcome, and if it passes, the run fails
   * with the crash, which no trial can be blamed for.
   */
  const runTrials = async (slots: readonly Slot[], batch: boolean): Promise<Trials | 'crashed'> => {
    const run: Trials = { completed: [], coverage: new CoverageTally(spec.args.length) };
    let crashed = false;
    // The smallest failing trial known, shared with the workers: each stops before the trials past it.
    const bound = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    bound[0] = MAX_TRIALS;
    // The last trial each worker ran one by one: the one to blame first for a timer found after them.
    const lastRan = new Map<Slot, number>();
    const found = (ev: Event) => {
      if (ev.kind !== 'thrown') run.completed.push({ at: () => ev.i, count: 1 });
      if (!run.best || ev.i < run.best.i) run.best = ev;
      lower(bound, ev.i);
    };
    const passed = (i: number, counts: readonly number[]) => {
      run.completed.push({ at: () => i, count: 1 });
      run.coverage.addCounts(counts);
    };
    const oneByOne = async (slot: Slot, at: (q: number) => number, count: number) => {
      for (let q = 0; q < count; q++) {
        const i = at(q);
        if (run.best && i >= run.best.i) return; // a smaller failing index is known: only smaller ones matter
        const m = oneTrial(i, bound);
        let out = await slot.request(m);
        const late = suspect(out);
        if (late) out = await slot.request({ ...m, grace });
        let ev = eventOf(i, out);
        if (!ev && late) ev = { i, kind: 'thrown', error: unblamed(i, seed, grace, late) };
        if (ev) return found(ev);
        if (out.kind === 'reply' && out.data.ran === 0) return; // past the bound another worker set
        if (out.kind === 'reply') passed(i, out.data.counts);
        lastRan.set(slot, i);
      }
    };
    const stripe = async (slot: Slot, at: (q: number) => number, count: number) => {
      slot.state[1] = 0; // its first trial, should the worker crash before it starts
      const out = await slot.request({ type: 'trials', first: at(0), step: at(1) - at(0), count, bound: bound.buffer as SharedArrayBuffer });
      // The stripe's trials ran back to back: none of them is surely to blame, even in a fresh worker.
      if (lateOf(out)) {
        crashed = true;
        lower(bound, -1); // the others stop: the trials run again one at a time
        return;
      }
      // A trial that timed out, or whose case never ended being made, is the one its worker ran; those before it passed.
      const ran = out.kind === 'reply' ? out.data.ran : Math.max(0, slot.state[1]!);
      run.completed.push({ at, count: ran });
      if (out.kind === 'reply') run.coverage.addCounts(out.data.counts);
      const ev = eventOf(at(ran), out);
      if (ev) found(ev);
    };
    await Promise.all(
      slots.map(async (slot, k) => {
        if (k >= indices.length) return;
        const at = (q: number) => firstIndex + (k + q * slots.length) * shards;
        const count = Math.ceil((indices.length - k) / slots.length);
        await (batch ? stripe(slot, at, count) : oneByOne(slot, at, count));
      }),
    );
    if (crashed) return 'crashed';
    // A passing run waits for the timers its trials left (see afterLastCase); a batched one runs again one trial at a time if one crashed a worker.
    if (!run.best) {
      const crash = await drained(slots, grace);
      if (crash && batch) return 'crashed';
      if (crash) run.best = await blameAfterLast(crash.slot, crash.late, lastRan.get(crash.slot), bound);
    }
    return run;
  };
  return withWorkers(Math.max(1, Math.min(n, indices.length)), setup, timeout, async (slots, info) => {
    // Batched; after a crash, which a batch cannot blame on its trial, again one trial a request, in fresh workers, as the run it stands for.
    let trialsRun = await runTrials(slots, true);
    if (trialsRun === 'crashed') {
      for (const slot of slots) slot.restart();
      trialsRun = (await runTrials(slots, false)) as Trials;
    }
    const { best, completed, coverage } = trialsRun;
    const final = best as Event | undefined;
    const executed = completed.reduce((sum, f) => sum + f.count, 0);
    if (settings.onTrial) {
      const upTo = final ? final.i : Infinity;
      const ran = completed.flatMap(({ at, count }) => Array.from({ length: count }, (_, q) => at(q)));
      for (const i of ran.filter((i) => i <= upTo).sort((a, b) => a - b)) settings.onTrial(i);
    }
    const extra = () => ({ executed, ...info() });
    if (final === undefined) {
      return { ...passedResult(run, indices.length, coverage), ...extra() };
    }
    // A case that never ended being made (a generator that loops) would not end here either: it is named by its trial and seed.
    if (final.kind === 'crash' && final.making) throw new WorkerCrashError(neverMade(final, seed));
    // The failing trial's case, made again here, where the function is: to name it, or to replay its shrinks.
    const start = trialCase(spec, seed, final.i, sizeOf(final.i, trials, maxSize));
    if (final.kind === 'thrown') throw inTrial(final.error, spec, final.i, settings, start.inputs);
    const count = (final.i - firstIndex) / shards + 1;
    const fatal = final.kind === 'timeout' || final.kind === 'timer' || final.kind === 'crash';

    // Shrinking: every worker follows the path of chosen candidates; candidates are dealt out one at a time.
    const shrinkState = { i: final.i, path: [] as number[], fatal };
    setup.shrink = shrinkState;
    for (const s of slots) s.post({ type: 'shrinkStart', i: final.i, path: [], fatal });
    let attempts = 0;
    let fatalEvents = 0;
    let step = 0;
    while (attempts < maxAttempts && fatalEvents < maxFatal) {
      const cap = maxAttempts - attempts;
      const thisStep = step;
      const results = new Map<number, 'ok' | 'no' | Error>();
      let end = Infinity;
      let next = 0;
      let evaluated = 0;
      let decided: { chosen?: number; error?: Error } | undefined;
      let wake!: () => void;
      const woken = new Promise<void>((r) => (wake = r));
      const decide = () => {
        if (decided) return;
        if (greedy) {
          for (const [j, r] of results) {
            if (r instanceof Error) decided = { error: r };
            else if (r === 'ok') decided = { chosen: j };
            if (decided) break;
          }
        } else {
          let j = 0;
          for (; results.has(j); j++) {
            const r = results.get(j)!;
            if (r instanceof Error) decided = { error: r };
            else if (r === 'ok') decided = { chosen: j };
            if (decided) break;
          }
          if (!decided && j >= Math.min(end, cap)) decided = {};
        }
        if (!decided && greedy && results.size >= Math.min(end, cap)) decided = {};
        if (decided) wake();
      };
      const runners = slots.map(async (slot) => {
        while (!decided && step === thisStep) {
          // Past the last timeout allowed, no candidate more is dealt; those dealt are still decided on (the last may be the one taken).
          if (next >= Math.min(end, cap) || fatalEvents >= maxFatal) return;
          const j = next++;
          // As for a trial, a crash (or one while the worker was idle) is the candidate's only if it crashes a fresh worker again on its own.
          const out = await requestOwn(slot, { type: 'cand', j }, () => step === thisStep);
          if (step !== thisStep) return;
          if (out.kind === 'reply') {
            if (out.data.end) end = Math.min(end, j);
            else if (out.data.thrown) results.set(j, rebuildError(out.data.thrown));
            else results.set(j, out.data.ok ? 'ok' : 'no');
          } else {
            fatalEvents++;
            // A candidate whose spec times out is skipped, as one whose spec throws is (see isCaseError); so is one
            // whose outcome is not surely its own (its worker never began it: there may be no candidate j).
            results.set(j, fatal && !suspect(out) && unfinished(j, out, timeout).kind === final.kind ? 'ok' : 'no');
          }
          if (!(out.kind === 'reply' && out.data.end)) evaluated++;
          decide();
        }
      });
      await Promise.race([woken, Promise.all(runners).then(() => decide())]);
      if (!decided) decided = {};
      step++;
      if (decided.error) throw decided.error;
      if (decided.chosen === undefined) break;
      attempts += greedy ? evaluated : decided.chosen + 1;
      shrinkState.path.push(decided.chosen);
      for (const s of slots) s.post({ type: 'advance', j: decided.chosen });
    }
    const shrinks = shrinkState.path.length;

    const where = failedAfter(count, shrinks, seed);
    const reproduce = (note = '') => `\nReproduce with the option ${replayOptions(settings)} and workers${note}.`;
    // Replay the chosen path here, to report the same counterexample a sequential run reports.
    if (!fatal) {
      const replayed = await caseDriver(run, async).drive(replayedFailure(run, start, shrinkState.path, count));
      if (replayed) return { ...replayed, ...extra() };
      // The workers followed the path: one draws its last case as it saw it.
      const out = await slots[0]!.request({ type: 'seen', unicode });
      const seen = out.kind === 'reply' ? out.data.seen : ` (a worker, asked to show it, ${out.kind === 'crash' ? `crashed: ${out.error}` : 'timed out'})`;
      return { passed: false, trials: count, seed, shrinks, message: workerOnlyMessage(where, seen) + reproduce(), ...extra() };
    }
    let inputs: readonly unknown[] = start.inputs;
    for (const j of shrinkState.path) inputs = nth(shrinkCandidates(spec, { inputs, resultDemand: unforced }, true), j)!.inputs;
    const { counterexample, message } = fatalFailure(spec, inputs, final, timeout, where, unicode, 'trial');
    return { passed: false, trials: count, seed, shrinks, counterexample, message: message + reproduce(final.kind === 'crash' ? '' : ' (without them, no timeout stops a trial)'), ...extra() };
  }).then(printable);
}
