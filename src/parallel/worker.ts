/**
 * The entry of a worker thread of a parallel check: imports the module that defined the check,
 * then runs the trials and shrink candidates it is sent, one at a time, or enumerates the
 * subtrees of exhaustive checking it is sent.
 * @module
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { existsSync, readlinkSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { unforced, type Demand } from '../demand/demand.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import { errorParts } from '../demand/describe.ts';
import { CoverageTally } from '../spec/coverage.ts';
import { report } from '../spec/report.ts';
import { caseDriver, isCaseError, type AnySpec, type CaseDriver, type CaseRunner, type Fn, type Trial } from '../spec/run-case.ts';
import { failsAlike, sameCase, rerunContext, shrinkCandidates, type Candidate } from '../spec/shrink-case.ts';
import { sizeOf, trialCase } from '../spec/trial-case.ts';
import { findCheck } from '../spec/registry.ts';
import { comparisons } from '../spec/options.ts';
import { CheckModuleError, importCheckModule } from './load-module.ts';
import { pathOf, type EnumeratedCase } from '../engine/enumerate.ts';
import { treeOf } from '../spec/exhaustive.ts';
import { holdRejections } from '../spec/unhandled-rejections.ts';
import { BY_IMPORT, CONTROL, FUNCTION, HARNESS, IMPORTING, LOADED, lower, SPEC, takeOne, TIMERS, type FromWorker, type Init, type Reply, type RequestType, type SentError, type ShrinkState, type ToWorker } from './protocol.ts';
import { spec as makeSpec } from '../spec/spec.ts';
import { list } from '../demand/lazy-positions.ts';
import { number } from '../demand/primitives.ts';
import { asyncIterable } from '../iter/index.ts';
import type { Shape } from '../demand/shape-types.ts';

/** What the worker was told of its run, and the memory it shares with its slot: see `Slot.state`; exhaustive checking's `hunger` is how many workers wait for work. */
type Started = Init & { state: SharedArrayBuffer; shrink?: ShrinkState };

const port = parentPort!;
let spec!: AnySpec;
let fn!: Fn;
let init!: Started;
/** The check's spec and function, with the run's budget and comparisons. */
let runner!: CaseRunner;
/** How this worker runs a case of its check: as runCase does (or runCaseAsync, in an asynchronous check: a promise), saying who runs. */
let driver!: CaseDriver;
let state!: Float64Array;

/** Sends the main thread a message of the protocol. */
function post(m: FromWorker): void {
  port.postMessage(m);
}

/** Answers request `id`. */
function answer<T extends RequestType>(id: number, data: Reply<T>): void {
  post({ type: 'reply', id, ...data });
}

/** Thrown to stop a subtree that was cancelled. */
const CANCELLED = Symbol('cancelled');

/** The state of shrinking: the current case and its candidates, computed as far as asked. */
let shrinking: { i: number; fatal: boolean; current: Trial | { inputs: readonly unknown[]; resultDemand: Demand; error?: unknown }; cands: Candidate[]; gen: Iterator<Candidate> } | null = null;

function serialize(err: unknown): SentError {
  // A mismatch keeps what it says of the value, to be rebuilt as one (its value cannot be sent).
  const mismatch = err instanceof ShapeMismatchError ? { path: err.path, expected: err.expected } : {};
  return { ...errorParts(err), ...mismatch };
}

/**
 * Marks the start of a case of request `id` in the shared state: strictcheck makes its inputs and
 * context (see {@link phase}). The messaging before it and the worker's own start are not the case's.
 */
function begin(id: number): void {
  phase('harness');
  state[3] = id;
}

/** What `state[4]` says of each phase. */
const PHASES = { harness: HARNESS, function: FUNCTION, spec: SPEC, timers: TIMERS } as const;

/**
 * Says in the shared state who runs from now (a timeout blames them): strictcheck's own work, which
 * the timeout does not count; the function (under its context), whose run the timeout counts;
 * the spec (and comparison), which has a limit of its own; or the timers the cases left, which
 * the timeout counts as it does the function. A phase is counted, not timed: the
 * slot times it from when it first sees it (reading the clock here, three times a trial, cost 5% of
 * a worker's CPU on take's trials). The count first: the slot may read the two at any time.
 */
function phase(who: keyof typeof PHASES): void {
  state[6] = NaN;
  state[5]! += 1;
  state[4] = PHASES[who];
  // Callbacks run during a case only in an asynchronous check, which awaits its cases.
  watchCallbacks(who === 'timers' || init.async);
}

/**
 * While the timers the cases left run, each callback that ends (a timer's, mostly) counts as a new
 * phase of them, which restarts the slot's clock: the timeout bounds each timer, as it does a call
 * of the function, not the sum of those that a subtree's cases, run back to back, left together.
 * A callback of what the check module's import started (see {@link byImport}) runs as
 * {@link BY_IMPORT} wherever it interrupts (the phase it interrupted goes on after it, anew).
 */
const callbackEnds = createHook({
  before: () => {
    if (!byImport.has(executionAsyncResource())) return;
    interrupted = { who: state[4]!, count: state[5]!, at: performance.now() };
    state[5]! += 1;
    state[4] = BY_IMPORT;
  },
  after: () => {
    if (byImport.has(executionAsyncResource())) {
      // The interrupted phase resumes, its clock less the callback's time (see the slot's lookAt).
      state[7]! += performance.now() - interrupted.at;
      state[6] = interrupted.count;
      state[5]! += 1;
      state[4] = interrupted.who;
    } else if (state[4] === TIMERS) state[5]! += 1;
  },
});
let watching = false;
/** The phase a callback of the import interrupted, its count, and when the callback began. */
let interrupted = { who: TIMERS, count: NaN, at: 0 };

function watchCallbacks(on: boolean): void {
  if (on === watching) return;
  watching = on;
  if (on) callbackEnds.enable();
  else callbackEnds.disable();
}

/**
 * What the check module's import started: the resources (timers, promises, …) its synchronous run
 * made (see {@link asImport}), and those that a callback of one of them made, a promise's
 * continuation included, as an async context propagates: no case's (see {@link callbackEnds}). An
 * async loop the import began (`for (;;) await sleep(5)`) stays the import's at every turn, which
 * marking its timers alone lost at the first. Weakly held: a timer that has fired and is dropped is forgotten.
 */
const byImport = new WeakSet<object>();
/** Whether the synchronous run of the import is under way (see {@link asImport}). */
let importing = false;
/** Whether this worker was let go (see control): the import's timers must not keep it alive. */
let letGo = false;
/** Marks what the import started; on from the first import for this worker's life, as its continuations may run at any time. */
const propagation = createHook({
  init: (_id, type, _trigger, resource) => {
    if (!importing && !byImport.has(executionAsyncResource())) return;
    byImport.add(resource);
    if (type !== 'Timeout' && type !== 'Immediate') return;
    if (letGo) return void (resource as Timer).unref();
    const ref = new WeakRef(resource as Timer);
    importTimers.add(ref);
    timerGone.register(resource as Timer, ref);
  },
});
type Timer = { unref(): unknown };
/** The timers of {@link byImport}, while they exist: unref'd once this worker is let go (see control), which they must not keep alive. */
const importTimers = new Set<WeakRef<Timer>>();
const timerGone = new FinalizationRegistry<WeakRef<Timer>>((ref) => importTimers.delete(ref));

/** Runs `start`, the synchronous part of the check module's import (see importCheckModule), as the import: what it starts is the import's. */
function asImport<T>(start: () => T): T {
  propagation.enable();
  importing = true;
  try {
    return start();
  } finally {
    importing = false;
  }
}

/**
 * A failing case's diagram as this worker draws it (with no header), for the report of a case that
 * passes where the report is made; or what kept it from being drawn, which must not lose the failure.
 */
function drawnHere(t: Trial, unicode: boolean): string {
  try {
    return report(spec, t, '', unicode);
  } catch (err) {
    const e = serialize(err);
    return ` (the worker could not draw it: ${e.name}: ${e.message})`;
  }
}

/** Trial `i` of a random run (whose init gives its seed, trials and largest size). */
function context(i: number) {
  return trialCase(spec, init.seed!, i, sizeOf(i, init.trials!, init.maxSize!));
}

function setCurrent(current: NonNullable<typeof shrinking>['current']): void {
  const s = shrinking!;
  s.current = current;
  s.cands = [];
  s.gen = shrinkCandidates(spec, current, s.fatal);
}

function candidate(j: number): Candidate | undefined {
  const s = shrinking!;
  while (s.cands.length <= j) {
    const r = s.gen.next();
    if (r.done) return undefined;
    s.cands.push(r.value);
  }
  return s.cands[j];
}

async function startShrink(i: number, path: readonly number[], fatal: boolean): Promise<void> {
  const { inputs, context: ctx } = context(i);
  shrinking = { i, fatal, current: { inputs, resultDemand: unforced }, cands: [], gen: [][Symbol.iterator]() };
  setCurrent(fatal ? { inputs, resultDemand: unforced } : await driver.run(inputs, ctx));
  for (const j of path) await advance(j);
}

async function advance(j: number): Promise<void> {
  const s = shrinking!;
  const c = candidate(j)!;
  setCurrent(s.fatal ? { inputs: c.inputs, resultDemand: unforced } : await driver.run(c.inputs, rerunContext(c), c.budget));
}

/**
 * Gives errors the function scheduled (a rejected promise, a throwing timer) a chance to crash
 * this worker during its case: a turn of the event loop, and a timer tick if timers are pending;
 * with a `grace` period (to blame a crash on the case), ticks while timers are pending, up to
 * `grace` ms (short of the timeout). What runs meanwhile is the timers the cases left, each held to
 * the timeout (see {@link callbackEnds}): one that loops is stopped as such, and blamed on the case that left it where the slot
 * can tell which (see `Outcome`).
 */
async function settle(grace = 0): Promise<void> {
  phase('timers');
  await new Promise((r) => setImmediate(r));
  const until = Date.now() + grace;
  do {
    if (!process.getActiveResourcesInfo().includes('Timeout')) return;
    await new Promise((r) => setTimeout(r, 1));
  } while (Date.now() < until);
}

/**
 * Runs a few cases of a check of strictcheck's own (the identity on lists, or on async iterables for
 * an asynchronous check, `async`) before the worker says it is ready: the first trial is not charged
 * with compiling generation, observation, spec and comparison, which can take longer than a short
 * timeout. No user code runs.
 */
async function warmUp(async: boolean): Promise<void> {
  const shape = (async ? asyncIterable(number) : list(number)) as Shape<unknown>;
  const identity = makeSpec([shape], shape, (predict, d) => predict(d)) as unknown as AnySpec;
  // It ends: whatever the run's budget.
  const own = caseDriver({ spec: identity, fn: (xs: unknown) => xs, settings: { forceBudget: Infinity, comparisons: comparisons('exact', 1) } }, async, phase);
  for (let i = 0; i < 8; i++) {
    const { inputs, context: ctx } = trialCase(identity, 0, i, i);
    await own.run(inputs, ctx);
  }
}

/** Whether this worker holds its rejections left unhandled, for its life: from its first asynchronous check. */
let holding = false;

/** The kinds of check (asynchronous or not) this worker has warmed up for: a worker of an earlier run (see the pool) may be. */
const warm = new Set<boolean>();

/** This thread's `schedstat` file, whose CPU time the slot reads to time cases (Linux only: else undefined). */
function threadClock(): string | undefined {
  try {
    const file = `/proc/${readlinkSync('/proc/thread-self')}/schedstat`;
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

// One message at a time, in order: a message that arrives while one is handled (an 'advance' while
// the module is imported) waits for it.
let queue: Promise<void> = Promise.resolve();
// The run is over (see startWorker): this worker ends once the timers its cases left have fired; its import's (an interval
// that runs for ever, say) do not keep it.
const control = (workerData as Record<string, MessagePort>)[CONTROL]!;
control.once('message', () => {
  letGo = true;
  for (const ref of importTimers) ref.deref()?.unref();
  control.close();
  port.close();
});
control.unref();

port.on('message', (m: ToWorker) => {
  // Once a message is handled, what runs until the next is the timers the cases left (see settle): so
  // are they held to the timeout while a run waits, and once it has ended, while this worker is kept idle (see the pool).
  // A timer the module's import left is no case's, though (see byImport).
  queue = queue.then(() => handle(m)).then(() => phase('timers'));
});

async function handle(m: ToWorker): Promise<void> {
  // No longer the timers the last request waited for (see settle): the slot tells them from a message by this (init brings the state).
  if (m.type !== 'init') phase('harness');
  switch (m.type) {
    case 'init': {
      try {
        init = m;
        state = new Float64Array(m.state);
        // An asynchronous check's rejections left unhandled fail their cases, as in the main thread (see unhandled-rejections.ts); once, for a pooled worker.
        if (m.async && !holding) {
          holdRejections();
          holding = true;
        }
        // From here, the slot counts the module's import against its limit; what it leaves is no case's (see byImport).
        watchCallbacks(true);
        state[0] = Date.now();
        state[3] = IMPORTING;
        await importCheckModule(m.moduleUrl, asImport, m.commonJs);
        state[0] = Date.now();
        state[3] = LOADED;
        const check = findCheck(m.moduleUrl, m.name);
        if (!check) {
          post({ type: 'initError', message: `the worker imported ${m.moduleUrl} but found no check named '${m.name}' defined there: a check run with workers must be created with defineCheck at the top level of its module` });
          return;
        }
        spec = check.spec as unknown as AnySpec;
        fn = check.fn as Fn;
        runner = { spec, fn, settings: { forceBudget: m.budget, comparisons: comparisons(m.ownCompare ? check.compare : m.compare, spec.args.length) } };
        driver = caseDriver(runner, m.async, phase);
        if (!warm.has(m.async)) await warmUp(m.async);
        warm.add(m.async);
        if (m.shrink) await startShrink(m.shrink.i, m.shrink.path, m.shrink.fatal);
        post({ type: 'ready', clock: threadClock() });
      } catch (err) {
        // A failure to load the module says what failed itself; the rule of check modules is added where it is the likely cause.
        if (err instanceof CheckModuleError) return void post({ type: 'initError', message: err.message });
        const { name, message } = serialize(err);
        post({ type: 'initError', message: `a worker could not load the check: ${name}: ${message}` });
      }
      return;
    }
    case 'trials': {
      // In a loop, with no message per trial: state[1] says which trial of the stripe runs, for a timeout or crash to name it.
      const bound = new Int32Array(m.bound);
      const tally = new CoverageTally(spec.args.length);
      let ran = 0;
      let failed = false;
      let thrown: SentError | undefined;
      for (let i = m.first; ran < m.count && i <= Atomics.load(bound, 0); ran++, i += m.step) {
        state[1] = ran;
        begin(m.id);
        try {
          const { inputs, context: ctx } = context(i);
          // Awaited only in an asynchronous check: a synchronous one's trials run in one turn, as they always did.
          const r = driver.run(inputs, ctx);
          const t = r instanceof Promise ? await r : r;
          if (!t.failed) {
            tally.add(t.resultDemand, t.actual);
            continue;
          }
          failed = true;
        } catch (err) {
          // The main thread names the trial and its inputs (see inTrial).
          thrown = serialize(err);
        }
        lower(bound, i); // the other workers stop before trials past this one
        break;
      }
      await settle(m.grace);
      answer(m.id, { ran, counts: tally.counts, failed, ...(thrown ? { thrown } : {}) });
      return;
    }
    case 'cases': {
      // A subtree of exhaustive checking: its cases in order, up to the first failure, or until another worker waits for work.
      // In a microtask rather than the message's callback: V8 throws exceptions (a refinement is one) many times faster there.
      await null;
      state[1] = 0;
      const stats = { cases: 0, runs: 0, refinements: 0 };
      const hunger = new Int32Array(init.hunger!);
      const allowance = new Int32Array(init.allowance!);
      // A run takes a case of maxCases' allowance before it starts, and gives it back if it was no case (it stopped on a hole, to be refined).
      let taken = false;
      const giveBack = () => {
        if (taken) Atomics.add(allowance, 0, 1);
        taken = false;
      };
      const tree = treeOf({ spec: runner.spec, settings: { prune: init.prune ?? true } }, m.depth);
      const tally = new CoverageTally(runner.spec.args.length);
      const stop = (waiting: number) => {
        if (state[2]) throw CANCELLED;
        giveBack();
        if (!takeOne(allowance)) return true; // maxCases is reached, or will be by the cases running: hand back what is left
        taken = true;
        if (stats.runs > 0 && waiting > 0 && takeOne(hunger)) {
          giveBack();
          return true; // hand back this subtree and the waiting ones
        }
        state[1] = stats.runs;
        begin(m.id);
        return false;
      };
      let reply: Omit<Reply<'cases'>, 'cases' | 'runs' | 'counts'>;
      try {
        let failed: EnumeratedCase<Trial> | undefined;
        const found = (c: EnumeratedCase<Trial>) => {
          taken = false;
          if (c.outcome.failed) failed = c;
          else tally.add(c.outcome.resultDemand, c.outcome.actual);
          return failed !== undefined;
        };
        // Awaited only in an asynchronous check, as its trials are.
        const walked = driver.drive((function* () {
          return yield* tree.cases([yield* tree.nodeAt(m.path)], stats, { found, stop });
        })());
        const rest = walked instanceof Promise ? await walked : walked;
        // A failing case goes with its diagram as this worker saw it, in case it passes where the report is made.
        reply = failed === undefined ? { rest: rest.map(pathOf) } : { failed: failed.path(), seen: drawnHere(failed.outcome, init.unicode ?? false) };
      } catch (err) {
        reply = err === CANCELLED ? { cancelled: true } : { thrown: serialize(err) };
      }
      giveBack();
      // A crash from now on is not one case's, nor is a timer that never ends.
      state[1] = -1;
      await settle();
      answer(m.id, { cases: stats.cases, runs: stats.runs, counts: tally.counts, ...reply });
      return;
    }
    case 'shrinkStart':
      await startShrink(m.i, m.path, m.fatal);
      return;
    case 'advance':
      await advance(m.j);
      return;
    case 'cand': {
      const s = shrinking!;
      const c = candidate(m.j);
      if (c === undefined) {
        answer(m.id, { end: true });
        return;
      }
      let reply: Reply<'cand'>;
      begin(m.id);
      try {
        if (s.fatal) {
          await driver.run(c.inputs, context(s.i).context);
          reply = { ok: false }; // it finished: not the same kind of counterexample
        } else {
          const t = await driver.run(c.inputs, rerunContext(c), c.budget);
          reply = { ok: failsAlike(t, (s.current as Trial).error !== undefined) && !sameCase(t, s.current as Trial) };
        }
      } catch (err) {
        // As in shrink-case.ts's shrink (see isCaseError).
        reply = isCaseError(err) || s.fatal ? { ok: false } : { thrown: serialize(err) };
      }
      await settle(m.grace);
      answer(m.id, reply);
      return;
    }
    case 'drain':
      // The run passed: the timers its cases left get a last chance to crash this worker.
      begin(m.id);
      await settle(m.grace);
      answer(m.id, {});
      return;
    case 'seen':
      // The current case of shrinking as this worker saw it (it failed here, and passed where the report is made).
      begin(m.id);
      answer(m.id, { seen: drawnHere(shrinking!.current as Trial, m.unicode) });
      return;
  }
}
