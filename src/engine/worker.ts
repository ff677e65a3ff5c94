/**
 * The entry of a worker thread of a parallel check: imports the module that defined the check,
 * then runs the trials and shrink candidates it is sent, one at a time, or enumerates the
 * subtrees of exhaustive checking it is sent.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { unforced, type Demand } from '../demand/demand.ts';
import { ShapeMismatchError } from '../demand/shape.ts';
import { comparisons, failsAlike, isCaseError, sameCase, rerunContext, runCase, shrinkCandidates, sizeOf, trialCase, type AnySpec, type Candidate, type Comparison, type Fn, type Trial } from '../spec/check.ts';
import { findCheck } from './parallel.ts';
import { pathOf } from './enumerate.ts';
import { takeOne, treeOf } from '../spec/exhaustive.ts';

interface Init {
  moduleUrl: string;
  name: string;
  seed: number;
  trials: number;
  maxSize: number;
  budget: number;
  /** The comparison of the run's options, if any (else the check's own: a function cannot be sent). */
  compare?: Comparison | Comparison[];
  shrink?: { i: number; path: number[]; fatal: boolean };
  /** Shared with the slot: when the current case started, its index in the request, and a request to cancel (see `Slot.state`). */
  state: SharedArrayBuffer;
  /** Exhaustive checking: pruning, and how many workers wait for work (shared). */
  prune?: boolean;
  hunger?: SharedArrayBuffer;
}

const port = parentPort!;
let spec!: AnySpec;
let fn!: Fn;
let init!: Init;
let compare!: ((a: Demand, p: Demand) => boolean)[];
let state!: Float64Array;

/** Thrown to stop a subtree that was cancelled. */
const CANCELLED = Symbol('cancelled');

/** The state of shrinking: the current case and its candidates, computed as far as asked. */
let shrinking: { i: number; fatal: boolean; current: Trial | { inputs: readonly unknown[]; resultDemand: Demand; error?: unknown }; cands: Candidate[]; gen: Iterator<Candidate> } | null = null;

function serialize(err: unknown): { name: string; message: string; stack?: string; path?: string; expected?: string } {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  // A mismatch keeps what it says of the value, to be rebuilt as one (its value cannot be sent).
  const mismatch = err instanceof ShapeMismatchError ? { path: err.path, expected: err.expected } : {};
  return { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}), ...mismatch };
}

function context(i: number) {
  return trialCase(spec, init.seed, i, sizeOf(i, init.trials, init.maxSize));
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

function startShrink(i: number, path: readonly number[], fatal: boolean): void {
  const { inputs, context: ctx } = context(i);
  shrinking = { i, fatal, current: { inputs, resultDemand: unforced }, cands: [], gen: [][Symbol.iterator]() };
  setCurrent(fatal ? { inputs, resultDemand: unforced } : runCase(spec, fn, inputs, ctx, init.budget, compare));
  for (const j of path) advance(j);
}

function advance(j: number): void {
  const s = shrinking!;
  const c = candidate(j)!;
  setCurrent(s.fatal ? { inputs: c.inputs, resultDemand: unforced } : runCase(spec, fn, c.inputs, rerunContext(c), init.budget, compare));
}

/**
 * Gives errors the function scheduled (a rejected promise, a throwing timer) a chance to crash
 * this worker during its case: a turn of the event loop, and a timer tick if timers are pending;
 * with a `grace` period (to blame a crash on the case), ticks while timers are pending, up to
 * `grace` ms, which the request's timeout does not count.
 */
async function settle(grace = 0): Promise<void> {
  await new Promise((r) => setImmediate(r));
  const until = Date.now() + grace;
  if (grace > 0) state[0] = Date.now();
  do {
    if (!process.getActiveResourcesInfo().includes('Timeout')) return;
    await new Promise((r) => setTimeout(r, 1));
  } while (Date.now() < until);
}

port.on('message', async (m: any) => {
  switch (m.type) {
    case 'init': {
      try {
        init = m;
        await import(m.moduleUrl);
        const check = findCheck(m.moduleUrl, m.name);
        if (!check) {
          port.postMessage({ type: 'initError', message: `the worker imported ${m.moduleUrl} but found no check named '${m.name}' defined there: a check run with workers must be created with defineCheck at the top level of its module` });
          return;
        }
        spec = check.spec as unknown as AnySpec;
        fn = check.fn as Fn;
        compare = comparisons(m.compare ?? check.compare, spec.args.length);
        state = new Float64Array(m.state);
        if (m.shrink) startShrink(m.shrink.i, m.shrink.path, m.shrink.fatal);
        port.postMessage({ type: 'ready' });
      } catch (err) {
        port.postMessage({ type: 'initError', message: `a worker could not load the check: ${serialize(err).name}: ${serialize(err).message}` });
      }
      return;
    }
    case 'trial': {
      const i: number = m.i;
      const { inputs, context: ctx } = context(i);
      let reply: object;
      try {
        const t = runCase(spec, fn, inputs, ctx, init.budget, compare);
        reply = { failed: t.failed };
      } catch (err) {
        // The main thread names the trial and its inputs (see inTrial).
        reply = { thrown: serialize(err) };
      }
      await settle(m.grace);
      port.postMessage({ type: 'reply', id: m.id, ...reply });
      return;
    }
    case 'cases': {
      // A subtree of exhaustive checking: its cases in order, up to the first failure, or until another worker waits for work.
      // In a microtask rather than the message's callback: V8 throws exceptions (a refinement is one) many times faster there.
      await null;
      state[1] = 0;
      const stats = { cases: 0, runs: 0, refinements: 0 };
      const hunger = new Int32Array(init.hunger!);
      const tree = treeOf({ spec, fn, budget: init.budget, compare, prune: init.prune ?? true }, m.depth);
      const stop = (waiting: number) => {
        if (state[2]) throw CANCELLED;
        if (stats.runs > 0 && waiting > 0 && takeOne(hunger)) return true; // hand back this subtree and the waiting ones
        state[0] = Date.now();
        state[1] = stats.runs;
        return false;
      };
      let reply: object;
      try {
        const it = tree.cases([tree.nodeAt(m.path)], stats, stop);
        let r = it.next();
        while (!r.done && !r.value.outcome.failed) r = it.next();
        reply = r.done ? { rest: r.value.map(pathOf) } : { failed: r.value.path() };
      } catch (err) {
        reply = err === CANCELLED ? { cancelled: true } : { thrown: serialize(err) };
      }
      state[1] = -1; // a crash from now on is not one case's
      await settle();
      port.postMessage({ type: 'reply', id: m.id, cases: stats.cases, runs: stats.runs, ...reply });
      return;
    }
    case 'shrinkStart':
      startShrink(m.i, m.path, m.fatal);
      return;
    case 'advance':
      advance(m.j);
      return;
    case 'cand': {
      const s = shrinking!;
      const c = candidate(m.j);
      if (c === undefined) {
        port.postMessage({ type: 'reply', id: m.id, end: true });
        return;
      }
      let reply: object;
      try {
        if (s.fatal) {
          runCase(spec, fn, c.inputs, context(s.i).context, init.budget, compare);
          reply = { ok: false }; // it finished: not the same kind of counterexample
        } else {
          const t = runCase(spec, fn, c.inputs, rerunContext(c), init.budget, compare);
          reply = { ok: failsAlike(t, (s.current as Trial).error !== undefined) && !sameCase(t, s.current as Trial) };
        }
      } catch (err) {
        // As in check.ts's shrink (see isCaseError).
        reply = isCaseError(err) || s.fatal ? { ok: false } : { thrown: serialize(err) };
      }
      await settle(m.grace);
      port.postMessage({ type: 'reply', id: m.id, ...reply });
      return;
    }
  }
});
