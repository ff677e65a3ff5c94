/**
 * Parallel checking (after QuickerCheck, Krook, Svensson, Hughes, Claessen 2024): trials striped
 * over worker threads by index, each with its own size; deterministic or greedy parallel
 * shrinking; a per-trial timeout that stops functions which never finish; and `shard` to split
 * one check's trials over CI runners.
 *
 * Rule: a check run with `workers` must be created with {@link defineCheck} at the top level of a
 * module whose import has no side effects besides defining checks (workers import it again).
 * @module
 */
import { isMainThread, MessageChannel, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { unforced } from '../demand/demand.ts';
import { describeSafely } from '../demand/describe.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import { checkArity, SpecError, type Spec } from '../spec/spec.ts';
import { checkKnownOptions, showOption } from './options.ts';
import { TS_LOADER } from './load-module.ts';
import { CoverageTally, withCoverage } from '../spec/coverage.ts';
import {
  checkInteger, commonSettings, counterexampleOf, DEFAULTS, failsAlike, failureResult, inTrial, OPTION_NAMES, printable, passedResult, replayOptions, report, rerunContext, runCase, shrinkCandidates, sizeOf, trialCase,
  type AnySpec, type CheckOptions, type CheckResult, type Comparison, type Counterexample, type Fn, type Trial,
} from '../spec/check.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** Options of a check run with worker threads. */
export interface ParallelOptions extends CheckOptions {
  /** Number of worker threads (`'all'`: one per core). Without it, the check runs in this thread. */
  readonly workers?: number | 'all' | undefined;
  /**
   * Most milliseconds one trial (or shrink candidate) may run in a worker, from when it starts there (and, on Linux, computing: its thread's CPU time);
   * past it, it is stopped and reported as a counterexample (a spec past it is a spec error). Default 10,000. See docs/parallel.md.
   */
  readonly timeout?: number | undefined;
  /** `'deterministic'` (default): the same minimal counterexample as sequential shrinking; `'greedy'`: whichever failing candidate a worker finds first. */
  readonly shrinking?: 'deterministic' | 'greedy' | undefined;
  /** Most candidates that time out or crash a worker while shrinking such a counterexample. Default 8; `Infinity`: no limit. */
  readonly maxShrinkTimeouts?: number | undefined;
}

/** A check that worker threads can load: made by {@link defineCheck}. */
export interface DefinedCheck<A extends readonly unknown[], R> {
  /** The URL of the module that defines it, where workers find it. */
  readonly moduleUrl: string;
  /** Its name in that module's registry. */
  readonly name: string;
  /** The spec to check. */
  readonly spec: Spec<A, R>;
  /** The function to check against it. */
  readonly fn: (...args: A) => R;
  /**
   * The comparison of the runs of this check (`assertSpec(check)`, `checkSpec(check)`) whose options
   * give none, with workers or without: a function too, which a run's options cannot send to workers.
   */
  readonly compare?: Comparison | readonly Comparison[];
}

const registry = new Map<string, DefinedCheck<readonly unknown[], unknown>>();

/**
 * Registers a check so that worker threads can load it: call it at the top level of a module,
 * with that module's `import.meta.url` and a name unique in the module. Its `compare` is the
 * comparison of the runs of the check itself (`assertSpec(check)`) whose options give none; a run
 * of its spec and function alone (`assertSpec(spec, fn)`) compares as its own options say.
 *
 * @example
 * ```ts
 * export const takeCheck = defineCheck(import.meta.url, 'take', takeSpec, take);
 * await assertSpec(takeCheck, { workers: 2 });        // or
 * await assertSpec(takeSpec, take, { workers: 2 });
 * ```
 */
export function defineCheck<const A extends readonly unknown[], R>(moduleUrl: string, name: string, spec: Spec<A, R>, fn: (...args: A) => R, options: { readonly compare?: Comparison | readonly Comparison[] } = {}): DefinedCheck<A, R> {
  checkKnownOptions(options, ['compare']);
  const key = `${moduleUrl}#${name}`;
  if (registry.has(key)) throw new TypeError(`defineCheck: a check named '${name}' is already defined in ${moduleUrl}`);
  const check: DefinedCheck<A, R> = { moduleUrl, name, spec, fn, ...(options.compare !== undefined ? { compare: options.compare } : {}) };
  registry.set(key, check as unknown as DefinedCheck<readonly unknown[], unknown>);
  return check;
}

/** @internal The check registered under this module and name, if any. */
export function findCheck(moduleUrl: string, name: string): DefinedCheck<readonly unknown[], unknown> | undefined {
  return registry.get(`${moduleUrl}#${name}`);
}

function lookup(spec: AnySpec, fn: Fn): DefinedCheck<readonly unknown[], unknown> | undefined {
  for (const c of registry.values()) if (c.spec === spec && c.fn === fn) return c;
  return undefined;
}

/**
 * @internal What a worker is told of a run's comparison: the run's own, if it is the check's (given
 * to defineCheck, a function perhaps, which the worker finds itself), else the options' (by name).
 */
export function workerCompare(check: DefinedCheck<readonly unknown[], unknown>, options: Pick<CheckOptions, 'compare'>): { compare?: CheckOptions['compare']; ownCompare: boolean } {
  const ownCompare = check.compare !== undefined && options.compare === check.compare;
  return ownCompare || options.compare === undefined ? { ownCompare } : { compare: options.compare, ownCompare };
}

/** The rule for checks run with workers, as error messages say it. */
export const WORKER_RULE =
  'a check run with workers must be created with defineCheck(import.meta.url, name, spec, fn) at the top level of a module whose import has no side effects besides defining checks';

/** The key of the worker data that marks a worker thread of a check (a module imported again under another URL still sees it). */
const WORKER_MARK = 'strictcheckWorker';

/**
 * @internal Refuses to start a check in a worker thread of a check: only a check module that runs
 * checks when imported does that, and with workers, each worker would start workers of its own.
 * The worker's slot is told, so that the run that started the worker fails with this message.
 */
export function refuseInWorker(): void {
  if (isMainThread || (workerData as Record<string, unknown> | null)?.[WORKER_MARK] !== true) return;
  const message =
    `a check was started in a worker thread of strictcheck, which only imports the module that defines its check: that module runs checks when imported, and ${WORKER_RULE}. ` +
    'Run the checks from another module (a test file) that imports them.';
  parentPort?.postMessage({ type: 'refused', message });
  throw new TypeError(message);
}

/**
 * The trial indices of shard `"i/n"` of a run of `trials` trials (all of them without a shard):
 * those ≡ i-1 (mod n). The n shards partition the trials of the run.
 *
 * @example
 * ```ts
 * shardIndices(10, '1/3'); // [0, 3, 6, 9]
 * shardIndices(10, '3/3'); // [2, 5, 8]
 * ```
 */
export function shardIndices(trials: number, shard: string | undefined): number[] {
  const { index, count } = parseShard(shard);
  const out: number[] = [];
  for (let i = index; i < trials; i += count) out.push(i);
  return out;
}

/** Shard `"i/n"` as its 0-based index and the number of shards (`0` of `1` without a shard). */
export function parseShard(shard: string | undefined): { readonly index: number; readonly count: number } {
  if (shard === undefined) return { index: 0, count: 1 };
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
  if (!m || +m[2]! < 1 || +m[1]! < 1 || +m[1]! > +m[2]!) throw new TypeError(`shard: expected "i/n" with 1 <= i <= n, got ${JSON.stringify(shard)}`);
  return { index: +m[1]! - 1, count: +m[2]! };
}

/** Reported for a trial that ran past the timeout. */
export class TrialTimeoutError extends Error {
  /** Always `'TrialTimeoutError'`: a report shows `TrialTimeoutError: timed out after … ms`. */
  override name = 'TrialTimeoutError';
  constructor(
    /** The timeout the trial ran past, in milliseconds. */
    readonly ms: number,
  ) {
    super(`timed out after ${ms} ms`);
  }
}

/** Reported for a trial during which its worker crashed (an error the function threw outside the call, e.g. in a timer). */
export class WorkerCrashError extends Error {
  /** Always `'WorkerCrashError'`: the name a report gives a crash, before the worker's own error. */
  override name = 'WorkerCrashError';
}

/** A check result of a parallel run, with what the workers did. */
export interface ParallelCheckResult extends CheckResult {
  /** Trials the workers ran to the end, including any past the reported failure (`trials` counts only those up to it, as a sequential run). */
  readonly executed: number;
  /** Workers started, replacements of stopped or crashed workers included. */
  readonly workersStarted: number;
  /** Milliseconds until the first workers were ready. */
  readonly startupMs: number;
}

// ---------------------------------------------------------------------------------------------
// Workers

/** How long a case run again to blame a crash on it waits for the timers it set, at most (and at most half the timeout). */
const GRACE = 1000;

/**
 * @internal What a request to a worker came to. A timeout blames the `spec` (or the comparison)
 * when it was running, else the function. A crash is `alone` when the worker had answered no
 * request before: then it is surely this request's own. `answered`: how many requests the crashed
 * worker had answered.
 */
export type Outcome = { kind: 'reply'; data: any } | { kind: 'timeout'; spec: boolean } | { kind: 'crash'; error: string; alone: boolean; answered: number };

/** Whether this is the TypeScript source (this repository's tests, through tsx) rather than the built package. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_ENTRY = new URL(FROM_SOURCE ? './worker.ts' : './worker.js', import.meta.url);

/**
 * Starts a worker thread: the built package's runs `worker.js` (and loads a TypeScript check
 * module as `importCheckModule` says); from the source, tsx is registered in the worker first
 * (`--import tsx` in execArgv does not load a .ts worker entry on Node 20).
 */
function startWorker(): Worker {
  // A channel of strictcheck's own, apart from the worker's parentPort, which the code it checks may listen to.
  const { port1: control, port2 } = new MessageChannel();
  const options = { stdout: false, stderr: false, workerData: { [WORKER_MARK]: true, [TS_LOADER]: FROM_SOURCE, [CONTROL]: port2 }, transferList: [port2] };
  const w = FROM_SOURCE ? new Worker(sourceEntry(), { ...options, eval: true, execArgv: [] }) : new Worker(WORKER_ENTRY, options);
  controls.set(w, control);
  control.unref();
  return w;
}

/** The code that starts a worker from the source: tsx registered, then the entry. */
function sourceEntry(): string {
  const api = new URL('./esm/api/index.mjs', resolveTsx()).href;
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_ENTRY.href)}); });`;
}

/** @internal The `workerData` key of a worker's control port (see {@link startWorker}). */
export const CONTROL = 'strictcheck.control';
/** Each worker's control port, this side. */
const controls = new WeakMap<Worker, MessagePort>();

let tsxRoot: string | undefined;
function resolveTsx(): string {
  // import.meta.resolve is missing when tsx runs this file as CommonJS; require.resolve works in both.
  tsxRoot ??= pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json')).href.replace(/package\.json$/, 'dist/');
  return tsxRoot;
}

/** @internal */
export interface SlotSetup {
  readonly init: Record<string, unknown>;
  /** The shrink state a new worker replays, if shrinking. */
  shrink?: { i: number; path: number[]; fatal: boolean };
}

/** @internal `Slot.state[3]` while a worker imports the check's module, and once it has. */
export const IMPORTING = -2;
/** @internal */
export const LOADED = -3;

/**
 * A worker's import of the check's module may take the timeout, and at least this long (ms): an
 * import is not a trial, and takes a worker's first compilations too.
 */
const IMPORT_LIMIT = 10_000;

/**
 * Most milliseconds, beyond twice the timeout, that a worker may take to get to work: to start
 * importing, or to start a request after the messages sent before it (the replays of shrinking
 * run cases that finished before). A worker that never gets there must not hang the run.
 */
const STALL_LIMIT = 30_000;

/**
 * A case that does not compute (it waits, blocked) is stopped once it has waited this many times
 * its timeout (or the timeout and 10 s, if longer): its thread's CPU time, which its timeout
 * counts where the system gives it, would never reach the timeout.
 */
const WAIT_FACTOR = 10;

/** Milliseconds of CPU time a thread has run, from its `schedstat` file (Linux), or undefined if it cannot be read. */
function cpuTime(schedstat: string | undefined): number | undefined {
  if (schedstat === undefined) return undefined;
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * @internal A worker thread that runs one request at a time, replaced when it stops or crashes.
 * It shares {@link Slot.state} with its worker: `[0]` when the worker's current case started
 * (`Date.now()`), `[1]` the index of that case within the request, `[2]` non-zero to ask the worker
 * to cancel it, `[3]` the id of the request that case belongs to ({@link IMPORTING} or
 * {@link LOADED} while it starts), `[4]` 1 while the spec (or comparison) runs, 0 while the
 * function does. A case times out once it has run `timeout` ms from its start in the worker, so
 * that neither the messaging nor the worker's own start are counted, and, where the system gives
 * the worker thread's CPU time (Linux), once it has also computed that long, so that a loaded
 * machine does not stop it early (see {@link WAIT_FACTOR}). The main thread stops it from outside,
 * as a worker in an endless loop cannot answer.
 */
export class Slot {
  worker: Worker | null = null;
  readonly state = new Float64Array(new SharedArrayBuffer(5 * Float64Array.BYTES_PER_ELEMENT));
  private ready: Promise<void> | null = null;
  private pending: ((o: Outcome) => void) | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  /** The crash of the worker while it had no request (a timer of an earlier case): the outcome of the next request. */
  private lost: Outcome | null = null;
  /** How many requests the current worker has answered. */
  private answered = 0;
  private closed = false;
  /** The worker thread's `schedstat` file, if it has one (see {@link cpuTime}). */
  private clock: string | undefined;

  constructor(
    private readonly setup: SlotSetup,
    readonly timeout: number,
    /** Shared by the slots of a run: workers started, and the refusal of a worker, which ends the run (see {@link refuseInWorker}). */
    private readonly stats: { started: number; refused?: Error },
  ) {}

  private spawn(): Promise<void> {
    if (this.closed) throw new Error('the run is over');
    const w = startWorker();
    this.stats.started++;
    this.worker = w;
    this.answered = 0;
    this.state[3] = -1;
    let settle!: (err?: Error) => void;
    const ready = new Promise<void>((res, rej) => (settle = (err) => (err ? rej(err) : res())));
    const stop = () => {
      this.worker = null;
      this.ready = null;
      void w.terminate();
    };
    // A worker that does not become ready (its import never ends) is stopped: the run gets an error, not a hang.
    const spawned = Date.now();
    const importLimit = Math.max(this.timeout, IMPORT_LIMIT);
    const watch = () => {
      if (this.worker !== w) return;
      const importing = this.state[3] === IMPORTING;
      const left = importing ? this.state[0]! + importLimit - Date.now() : (this.state[3] === LOADED ? this.state[0]! : spawned) + this.stallLimit() - Date.now();
      if (left > 0) {
        watcher = setTimeout(watch, left).unref();
        return;
      }
      stop();
      const moduleUrl = String(this.setup.init.moduleUrl);
      settle(
        new TypeError(
          importing
            ? `a worker could not load the check: importing ${moduleUrl} did not finish within ${importLimit} ms (the larger of the timeout and ${IMPORT_LIMIT} ms). Does it wait for something, or loop, at its top level? ${WORKER_RULE}`
            : `a worker did not get ready within ${this.stallLimit()} ms, though it ${this.state[3] === LOADED ? `had imported ${moduleUrl}` : 'had not yet begun to import the check'}`,
        ),
      );
    };
    // Unref'd: the watch of a worker a finished run no longer waits for must not keep the process alive.
    let watcher = setTimeout(watch, Math.min(importLimit, this.stallLimit())).unref();
    ready.then(
      () => clearTimeout(watcher),
      () => clearTimeout(watcher),
    );
    w.on('message', (m: any) => {
      if (this.worker !== w) return;
      if (m.type === 'ready') {
        this.clock = m.clock;
        settle();
      }
      else if (m.type === 'initError') settle(new TypeError(m.message));
      else if (m.type === 'refused') {
        // The module runs checks when imported: the run ends with that, and no worker is started again.
        this.stats.refused ??= new TypeError(m.message);
        stop();
        settle(this.stats.refused);
        const p = this.pending;
        this.pending = null;
        p?.({ kind: 'crash', error: m.message, alone: false, answered: this.answered });
      } else if (m.type === 'reply' && this.pending) {
        this.answered++;
        const p = this.pending;
        this.pending = null;
        p({ kind: 'reply', data: m });
      }
    });
    const died = (error: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.ready = null;
      settle(new Error(`a worker stopped while starting: ${error}`));
      const p = this.pending;
      this.pending = null;
      if (p) p({ kind: 'crash', error, alone: this.answered === 0, answered: this.answered });
      else this.lost = { kind: 'crash', error, alone: false, answered: this.answered };
    };
    w.on('error', (e) => died(describeSafely(e)));
    w.on('exit', (code) => died(`the worker exited with code ${code}`));
    w.postMessage({ type: 'init', ...this.setup.init, state: this.state.buffer, ...(this.setup.shrink ? { shrink: this.setup.shrink } : {}) });
    this.ready = ready;
    return ready;
  }

  /** How long a worker may take to get to work, user code aside (see {@link STALL_LIMIT}). */
  private stallLimit(): number {
    return Math.min(MAX_TIMER, 2 * this.timeout + STALL_LIMIT);
  }

  /** Starts the worker if there is none, and waits until it is ready. */
  async alive(): Promise<void> {
    await (this.worker && this.ready ? this.ready : this.spawn());
  }

  /** Sends a message without waiting for an answer (to a live worker only). */
  post(m: object): void {
    this.worker?.postMessage(m);
  }

  /**
   * One request at a time: sends `m`, resolves with the reply, or a timeout (worker stopped), or a
   * crash (a worker that does not start on the request in time counts as one). Rejects once a
   * worker of the run refused to run a check (see {@link refuseInWorker}).
   */
  request(m: object): Promise<Outcome> {
    const run = async (): Promise<Outcome> => {
      const lost = this.lost;
      this.lost = null;
      if (lost !== null) return lost;
      await this.alive();
      const w = this.worker!;
      const id = this.nextId++;
      const sent = Date.now();
      // The CPU time of the worker when its current case started: for the first, when it was idle, before the request.
      let cpu = { start: NaN, at: cpuTime(this.clock) };
      return new Promise<Outcome>((resolve) => {
        const check = () => {
          if (this.pending !== done) return;
          // The clock runs from when the worker started the request's current case (see state).
          const started = this.state[3] === id;
          const now = Date.now();
          const start = this.state[0]!;
          let left = started ? start + this.timeout - now : sent + this.stallLimit() - now;
          if (started && left <= 0 && cpu.at !== undefined) {
            // The request's first case counts from the request; a later one (exhaustive checking) from when it is first seen here: less, never more.
            if (start !== cpu.start) cpu = { start, at: Number.isNaN(cpu.start) && this.state[1] === 0 ? cpu.at : cpuTime(this.clock) };
            const used = (cpuTime(this.clock) ?? Infinity) - cpu.at!;
            const waited = now - start;
            if (used < this.timeout && waited < Math.max(WAIT_FACTOR * this.timeout, this.timeout + 10_000)) left = Math.max(1, this.timeout - used);
          }
          if (left > 0) {
            timer = setTimeout(check, Math.min(left, MAX_TIMER));
            return;
          }
          this.pending = null;
          this.worker = null;
          this.ready = null;
          void w.terminate();
          resolve(started ? { kind: 'timeout', spec: this.state[4] === 1 } : { kind: 'crash', error: `the worker did not start on its request within ${this.stallLimit()} ms`, alone: false, answered: this.answered });
        };
        let timer = setTimeout(check, this.timeout);
        const done = (o: Outcome) => {
          clearTimeout(timer);
          resolve(o);
        };
        this.pending = done;
        w.postMessage({ ...m, id });
      });
    };
    const refused = () => {
      if (this.stats.refused) throw this.stats.refused;
    };
    const p = this.chain.then(run, run).then((o) => (refused(), o));
    this.chain = p.catch(() => undefined);
    return p;
  }

  /**
   * Once a run passed: lets the timers the worker's cases left crash it, waiting for them up to
   * `grace` ms. Resolves with the crash, if any (none without a worker).
   */
  async drain(grace: number): Promise<(Outcome & { kind: 'crash' }) | undefined> {
    if (!this.worker && !this.lost) return undefined;
    const out = await this.request({ type: 'drain', grace });
    return out.kind === 'crash' ? out : undefined;
  }

  /** Stops the worker; a request still waiting for it is answered as a crash, and none is started again. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    const p = this.pending;
    this.pending = null;
    p?.({ kind: 'crash', error: 'the run is over', alone: false, answered: this.answered });
    if (!w) return;
    // A worker at work (a case that does not end) is stopped. An idle one is let go: it ends once
    // the timers its cases left have fired, without keeping the process alive, and an error one
    // of them raises crashes the process, as it would without workers.
    if (p) return void (await w.terminate());
    controls.get(w)?.postMessage('finish');
    w.unref();
    w.on('error', (err) => {
      throw new WorkerCrashError(`a worker of a check that had ended raised an error asynchronously (in a timer a case set): without workers, it would crash the process too. The worker's error: ${describeSafely(err)}`);
    });
  }
}

/** @internal */
export function rebuildError(t: { name: string; message: string; stack?: string; path?: string; expected?: string }): Error {
  if (t.name === 'SpecError') return new SpecError(t.message);
  // Without the value, which a worker cannot send: the message says what it was.
  if (t.name === 'ShapeMismatchError') return Object.assign(new ShapeMismatchError(t.path ?? '', t.expected ?? '', undefined), { message: t.message });
  return Object.assign(new Error(t.message), { name: t.name });
}

function nth<T>(it: Iterable<T>, j: number): T | undefined {
  let k = 0;
  for (const x of it) if (k++ === j) return x;
  return undefined;
}

type Event = { i: number; kind: 'failed' } | { i: number; kind: 'thrown'; error: Error } | { i: number; kind: 'timeout' } | { i: number; kind: 'crash'; error: string };

/** @internal The error of a case whose spec (or comparison) ran past the timeout: the spec's fault, as a spec running past the force budget is. */
export function specTimeout(timeout: number): SpecError {
  return new SpecError(`the spec did not finish: the function had, but the spec (or the comparison) timed out after ${timeout} ms`);
}

/** The event of trial `i`, whose request ended without a reply: a timeout (the spec's is a spec error), or a crash. */
function unfinished(i: number, out: Outcome & { kind: 'timeout' | 'crash' }, timeout: number): Event {
  if (out.kind === 'crash') return { i, kind: 'crash', error: out.error };
  return out.spec ? { i, kind: 'thrown', error: specTimeout(timeout) } : { i, kind: 'timeout' };
}

/** The event of trial `i`, which finished with the worker's reply `data`: none if it passed. */
function replied(i: number, data: any): Event | undefined {
  return data.thrown ? { i, kind: 'thrown', error: rebuildError(data.thrown) } : data.failed ? { i, kind: 'failed' } : undefined;
}

/** @internal A random check with `workers`: finds the registered check of `spec` and `fn`. */
export async function runParallel(spec: AnySpec, fn: Fn, options: ParallelOptions): Promise<ParallelCheckResult> {
  return runChecked(registeredCheck(spec, fn, 'checkSpec'), options);
}

/** @internal The check registered with `spec` and `fn`, or an error that explains the rule (`what` names the function called). */
export function registeredCheck(spec: AnySpec, fn: Fn, what: string): DefinedCheck<readonly unknown[], unknown> {
  checkArity(spec, fn); // first: a value that is not a function is not an unregistered one
  const check = lookup(spec, fn);
  if (check === undefined) {
    throw new TypeError(
      `${what} with workers: this spec and function were not registered with defineCheck. Workers cannot receive closures, so they import the module that defines the check again: ${WORKER_RULE}, e.g. \`export const myCheck = defineCheck(import.meta.url, 'myCheck', mySpec, myFn)\`, then run the check itself: ${what}(myCheck, options). Or drop the workers option to check in this thread.`,
    );
  }
  return check;
}

/** The longest delay of a timer: Node runs a longer one after 1 ms. */
const MAX_TIMER = 2 ** 31 - 1;

/**
 * @internal What a run with workers checks first: its options for workers, and how many workers to
 * start. Workers are sent only the options' comparison, which cannot hold functions; they find
 * the check's themselves.
 */
export function workerSettings(check: DefinedCheck<readonly unknown[], unknown>, options: Pick<ParallelOptions, 'compare' | 'workers' | 'timeout' | 'maxShrinkTimeouts' | 'shrinking'>): { workers: number } {
  if (!workerCompare(check, options).ownCompare && [options.compare].flat().some((c) => typeof c === 'function')) {
    throw new TypeError('compare: comparisons given as functions cannot be sent to workers; give them to defineCheck(..., { compare }) and run the check itself (assertSpec(check, options))');
  }
  checkInteger('timeout', options.timeout, 1, MAX_TIMER);
  checkInteger('maxShrinkTimeouts', options.maxShrinkTimeouts, 0, Infinity);
  if (options.shrinking !== undefined && options.shrinking !== 'deterministic' && options.shrinking !== 'greedy') {
    throw new RangeError(`shrinking must be 'deterministic' or 'greedy', got ${showOption(options.shrinking)}`);
  }
  const workers = options.workers === 'all' ? availableParallelism() : (options.workers ?? 2);
  if (!Number.isInteger(workers) || workers < 1) throw new TypeError(`workers: expected a positive integer or 'all', got ${String(options.workers)}`);
  return { workers };
}

/** @internal How long a case run again to blame a crash on it, or a passing run, waits for the timers its cases set. */
export function graceOf(timeout: number): number {
  return Math.min(GRACE, timeout / 2);
}

/**
 * @internal Once a run with workers passed: waits up to `grace` ms for the timers its cases left,
 * and rejects with a {@link WorkerCrashError} if one raises an error, so that the run does not
 * pass. A run without workers cannot wait (it is synchronous): the error crashes its process.
 */
export async function afterLastCase(slots: readonly Slot[], grace: number, unit: string): Promise<void> {
  const crash = (await Promise.all(slots.map((s) => s.drain(grace)))).find((c) => c !== undefined);
  if (crash) {
    throw new WorkerCrashError(
      `a worker crashed after the last ${unit}: a ${unit} it ran raised an error asynchronously (e.g. in a timer) once it had finished, within the ${grace} ms the run waits for such timers. ` +
        `Without workers, that error would crash the process once raised. The worker's error: ${crash.error}`,
    );
  }
}

/** @internal Starts `count` workers, waits until they are ready, runs `body` with them, and stops them. */
export async function withWorkers<R>(count: number, setup: SlotSetup, timeout: number, body: (slots: Slot[], info: () => { workersStarted: number; startupMs: number }) => Promise<R>): Promise<R> {
  const stats: { started: number; refused?: Error } = { started: 0 };
  const slots = Array.from({ length: count }, () => new Slot(setup, timeout, stats));
  const t0 = performance.now();
  try {
    await Promise.all(slots.map((s) => s.alive()));
    const startupMs = performance.now() - t0;
    return await body(slots, () => ({ workersStarted: stats.started, startupMs }));
  } finally {
    await Promise.all(slots.map((s) => s.close()));
  }
}

/**
 * @internal The counterexample of a case that did not finish in a worker (it timed out, or crashed
 * the worker), with its report: `where` says where it was found, `unit` names a case ('trial').
 */
export function fatalFailure(spec: AnySpec, inputs: readonly unknown[], fatal: { kind: 'timeout' } | { kind: 'crash'; error: string }, timeout: number, where: string, unicode: boolean, unit: string): { counterexample: Counterexample; message: string } {
  const thrown = fatal.kind === 'timeout' ? new TrialTimeoutError(timeout) : new WorkerCrashError(`the worker crashed: ${fatal.error}`);
  const shown: Trial = { inputs, resultDemand: unforced, actual: inputs.map(() => unforced), predicted: [], failed: true, error: { thrown } };
  const what = fatal.kind === 'timeout' ? `the function did not finish: ${thrown.message}` : `the worker crashed during a ${unit}`;
  // The stopped worker took the case's demands with it: the report says they are unknown, and why.
  const stopped = fatal.kind === 'timeout' ? { unknown: 'the worker was stopped', what: `the function ${thrown.message}` } : { unknown: 'the worker crashed', what: 'the worker crashed' };
  return { counterexample: counterexampleOf(shown), message: report(spec, shown, `Failed: ${what} (${where})`, unicode, 'It did not finish', stopped) };
}

/**
 * @internal The report of a case that failed in a worker but passes when run again in this thread
 * (`where`: how it was found), with its diagram as the worker drew it (`seen`): a report drawn
 * here would show a failure whose columns agree.
 */
export function workerOnlyMessage(where: string, seen: string): string {
  return (
    `Failed: the spec does not match the function in a worker thread only (${where}): run again in the main thread, it passes. ` +
    `The function behaves differently in a worker (does it read isMainThread, or state of its own thread?). The case as the worker saw it:${seen}`
  );
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
  const requestOwn = async (slot: Slot, m: object, current = () => true): Promise<{ out: Outcome; suspect?: Outcome & { kind: 'crash' } }> => {
    const out = await slot.request(m);
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
          const { out, suspect } = await requestOwn(slot, { type: 'trial', i });
          let ev: Event | undefined = out.kind === 'reply' ? replied(i, out.data) : unfinished(i, out, timeout);
          if (!ev && suspect) {
            // It passes on its own: the crash, an earlier trial's, must not pass unnoticed.
            const message =
              `a worker crashed at trial ${i + 1} (seed ${seed}), but no trial can be blamed: run again alone in a fresh worker, which waited up to ${grace} ms for the timers it set, ` +
              `that trial does not crash. One of the ${suspect.answered} trials the worker had finished before probably raised the error asynchronously (e.g. in a timer). The worker's error: ${suspect.error}`;
            ev = { i, kind: 'thrown', error: new WorkerCrashError(message) };
          }
          if (!ev && out.kind === 'reply') coverage.addClassified(out.data.forced);
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
          const { out } = await requestOwn(slot, { type: 'cand', j }, () => step === thisStep);
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

safeInstanceof(TrialTimeoutError, WorkerCrashError);
