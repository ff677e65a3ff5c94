/**
 * A random check in worker threads (after QuickerCheck, Krook, Svensson, Hughes, Claessen 2024):
 * trials striped over the workers by index, each with its own size, the same verdict and
 * counterexample as the run in this thread; deterministic or greedy parallel shrinking.
 * @module
 */
import { unforced } from '../demand/demand.ts';
import { checkArity } from '../spec/spec.ts';
import { CoverageTally, withCoverage } from '../spec/coverage.ts';
import { shardIndices } from '../spec/shard.ts';
import type { DefinedCheck } from '../spec/registry.ts';
import {
  commonSettings, DEFAULTS, failsAlike, failureResult, inTrial, OPTION_NAMES, printable, passedResult, replayOptions, rerunContext, runCase, shrinkCandidates, sizeOf, trialCase,
  type AnySpec, type CheckResult, type Fn, type Trial,
} from '../spec/check.ts';
import { fatalFailure, rebuildError, specTimeout, WorkerCrashError, workerOnlyMessage } from './errors.ts';
import { afterLastCase, graceOf, withWorkers, type Slot, type SlotSetup } from './pool.ts';
import { workerCompare, workerSettings, type ParallelOptions } from './settings.ts';
import type { Outcome, Reply, RequestBody } from './protocol.ts';

/** A check result of a parallel run, with what the workers did. */
export interface ParallelCheckResult extends CheckResult {
  /** Trials the workers ran to the end, including any past the reported failure (`trials` counts only those up to it, as a sequential run). */
  readonly executed: number;
  /** Workers started, replacements of stopped or crashed workers included. */
  readonly workersStarted: number;
  /** Milliseconds until the first workers were ready. */
  readonly startupMs: number;
}

function nth<T>(it: Iterable<T>, j: number): T | undefined {
  let k = 0;
  for (const x of it) if (k++ === j) return x;
  return undefined;
}

type Event = { i: number; kind: 'failed' } | { i: number; kind: 'thrown'; error: Error } | { i: number; kind: 'timeout' } | { i: number; kind: 'crash'; error: string };

/** The event of trial `i`, whose request ended without a reply: a timeout (the spec's is a spec error), or a crash. */
function unfinished(i: number, out: Outcome & { kind: 'timeout' | 'crash' }, timeout: number): Event {
  if (out.kind === 'crash') return { i, kind: 'crash', error: out.error };
  return out.spec ? { i, kind: 'thrown', error: specTimeout(timeout) } : { i, kind: 'timeout' };
}

/** The event of trial `i`, which finished with the worker's reply `data`: none if it passed. */
function replied(i: number, data: Reply<'trial'>): Event | undefined {
  return 'thrown' in data ? { i, kind: 'thrown', error: rebuildError(data.thrown) } : data.failed ? { i, kind: 'failed' } : undefined;
}

/** @internal A random check of `check` itself in worker threads (not another check of its spec and function). */
export async function runChecked(check: DefinedCheck<readonly unknown[], unknown>, options: ParallelOptions): Promise<ParallelCheckResult> {
  const spec = check.spec as unknown as AnySpec;
  const fn = check.fn as Fn;
  checkArity(spec, fn);
  const { workers: n } = workerSettings(check, options);
  const { budget, compare, unicode } = commonSettings(spec, fn, options, OPTION_NAMES.check);
  const trials = options.trials ?? DEFAULTS.trials;
  const maxSize = options.maxSize ?? DEFAULTS.maxSize;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const timeout = options.timeout ?? DEFAULTS.timeout;
  const maxAttempts = options.maxShrinkAttempts ?? DEFAULTS.maxShrinkAttempts;
  const maxFatal = options.maxShrinkTimeouts ?? 8;
  const greedy = options.shrinking === 'greedy';
  const indices = shardIndices(trials, options.shard);

  const setup: SlotSetup = { init: { moduleUrl: check.moduleUrl, name: check.name, seed, trials, maxSize, budget, ...workerCompare(check, options) } };
  const grace = graceOf(timeout);
  /**
   * Sends a trial or a shrink candidate, `m`, to `slot`. A crash that is not surely the case's own
   * (not `alone`) may be an earlier case's, raised asynchronously later than the worker waited for
   * it: the case is then blamed only if it crashes again alone, in a fresh worker (the crashed one
   * is replaced) that waits for the timers it set (unless `current` says its outcome is no longer
   * wanted); if it finishes there, that is its outcome, and `suspect` is the first crash.
   */
  const requestOwn = async <T extends 'trial' | 'cand'>(slot: Slot, m: RequestBody<T>, current = () => true): Promise<{ out: Outcome<T>; suspect?: Outcome & { kind: 'crash' } }> => {
    const out = await slot.request<T>(m);
    if (out.kind !== 'crash' || out.alone || !current()) return { out };
    return { out: await slot.request({ ...m, grace }), suspect: out };
  };
  return withWorkers(Math.max(1, Math.min(n, indices.length)), setup, timeout, async (slots, info) => {
    // Trials, striped: worker k runs positions p ≡ k (mod n), each trial with its own size.
    let best: Event | undefined;
    let executed = 0;
    const coverage = new CoverageTally(spec.args.length);
    const completed: number[] = [];
    await Promise.all(
      slots.map(async (slot, k) => {
        for (let p = k; p < indices.length; p += slots.length) {
          const i = indices[p]!;
          if (best && i >= best.i) return; // a smaller failing index is known: only smaller ones matter
          const { out, suspect } = await requestOwn(slot, { type: 'trial' as const, i });
          let ev: Event | undefined = out.kind === 'reply' ? replied(i, out.data) : unfinished(i, out, timeout);
          if (!ev && suspect) {
            // It passes on its own: the crash, an earlier trial's, must not pass unnoticed.
            const message =
              `a worker crashed at trial ${i + 1} (seed ${seed}), but no trial can be blamed: run again alone in a fresh worker, which waited up to ${grace} ms for the timers it set, ` +
              `that trial does not crash. One of the ${suspect.answered} trials the worker had finished before probably raised the error asynchronously (e.g. in a timer). The worker's error: ${suspect.error}`;
            ev = { i, kind: 'thrown', error: new WorkerCrashError(message) };
          }
          if (!ev && out.kind === 'reply' && 'forced' in out.data) coverage.addClassified(out.data.forced);
          if (!ev || ev.kind !== 'thrown') {
            executed++;
            completed.push(i);
          }
          if (ev && (!best || ev.i < best.i)) best = ev;
        }
      }),
    );
    const final = best as Event | undefined;
    const upTo = final ? final.i : Infinity;
    const ran = completed.filter((i) => i <= upTo).sort((a, b) => a - b);
    for (const i of ran) options.onTrial?.(i);
    const extra = () => ({ executed, ...info() });
    if (final === undefined) {
      await afterLastCase(slots, grace, 'trial');
      return { ...withCoverage(passedResult(indices.length, seed, options.shard), coverage.figures(), options.coverage, spec.names, replayOptions(seed, options)), ...extra() };
    }
    // The failing trial's case, made again here, where the function is: to name it, or to replay its shrinks.
    const start = trialCase(spec, seed, final.i, sizeOf(final.i, trials, maxSize));
    if (final.kind === 'thrown') throw inTrial(final.error, spec, final.i, seed, options, start.inputs);
    const count = indices.indexOf(final.i) + 1;
    const fatal = final.kind === 'timeout' || final.kind === 'crash';

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
          const { out } = await requestOwn(slot, { type: 'cand' as const, j }, () => step === thisStep);
          if (step !== thisStep) return;
          if (out.kind === 'reply') {
            if (out.data.end) end = Math.min(end, j);
            else if (out.data.thrown) results.set(j, rebuildError(out.data.thrown));
            else results.set(j, out.data.ok ? 'ok' : 'no');
          } else {
            fatalEvents++;
            // A candidate whose spec times out is skipped, as one whose spec throws is (see isCaseError).
            results.set(j, fatal && unfinished(j, out, timeout).kind === final.kind ? 'ok' : 'no');
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

    const where = `after ${count} trial${count === 1 ? '' : 's'} and ${shrinks} shrink${shrinks === 1 ? '' : 's'}; seed ${seed}`;
    const reproduce = (note = '') => `\nReproduce with the option ${replayOptions(seed, options)} and workers${note}.`;
    // Replay the chosen path here, to report the same counterexample a sequential run reports.
    if (!fatal) {
      let current: Trial = runCase(spec, fn, start.inputs, start.context, budget, compare);
      // Each step failed alike in a worker; here it may not, if the function behaves differently there.
      let alike = current.failed;
      for (const j of shrinkState.path) {
        if (!alike) break;
        const c = nth(shrinkCandidates(spec, current), j)!;
        const next = runCase(spec, fn, c.inputs, rerunContext(c), budget, compare);
        alike = failsAlike(next, current.error !== undefined);
        current = next;
      }
      if (alike) return { ...failureResult(spec, fn, current, count, shrinks, seed, budget, compare, unicode, options), ...extra() };
      // The workers followed the path: one draws its last case as it saw it.
      const out = await slots[0]!.request({ type: 'seen', unicode });
      const seen = out.kind === 'reply' ? out.data.seen : ` (a worker, asked to show it, ${out.kind === 'timeout' ? 'timed out' : `crashed: ${out.error}`})`;
      return { passed: false, trials: count, seed, shrinks, message: workerOnlyMessage(where, seen) + reproduce(), ...extra() };
    }
    let inputs: readonly unknown[] = start.inputs;
    for (const j of shrinkState.path) inputs = nth(shrinkCandidates(spec, { inputs, resultDemand: unforced }, true), j)!.inputs;
    const { counterexample, message } = fatalFailure(spec, inputs, final, timeout, where, unicode, 'trial');
    return { passed: false, trials: count, seed, shrinks, counterexample, message: message + reproduce(final.kind === 'timeout' ? ' (without workers it would not stop)' : ''), ...extra() };
  }).then(printable);
}
