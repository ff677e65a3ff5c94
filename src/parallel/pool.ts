/**
 * The worker threads of a parallel run: each in a {@link Slot} that sends it one request at a
 * time, times the case it runs, and replaces it when it is stopped or crashes; and the idle
 * workers of runs that ended, which the next run of a check of the same module takes.
 * @module
 */
import { MessageChannel, Worker, type MessagePort, type WorkerOptions } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeSafely } from '../demand/describe.ts';
import { WORKER_MARK, WORKER_RULE } from '../spec/registry.ts';
import { MAX_TIMER } from '../spec/options.ts';
import { copyPath, loadedAsCommonJs, runsVitest, SOURCE_COPIES, SOURCE_PRELUDE, TS_LOADER, tsxApi, UNDER_VITEST, workerExecArgv } from './load-module.ts';
import { couldNotStart, importLeft, specLimit, WorkerCrashError } from './errors.ts';
import { BY_IMPORT, CONTROL, FUNCTION, HARNESS, IMPORTING, LOADED, SPEC, TIMERS, type FromWorker, type Init, type Late, type Outcome, type Request, type RequestBody, type RequestType, type ShrinkState, type ToWorker } from './protocol.ts';

/** Sends a worker a message of the protocol. */
function send(w: Worker, m: ToWorker): void {
  w.postMessage(m);
}


/** How long a case run again to blame a crash on it waits for the timers it set, at most (and at most half the timeout). */
const GRACE = 1000;

/** Whether this is the TypeScript source (this repository's tests, through tsx) rather than the built package. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
// The built package is one folder of JavaScript (scripts/build.ts): the worker's entry is beside whichever file of it holds this module.
const WORKER_ENTRY = new URL(FROM_SOURCE ? './worker.ts' : './worker.js', import.meta.url);

/**
 * Whether this copy of strictcheck was loaded as CommonJS: tsx compiles it so for a CommonJS module
 * that `require`s it (a TypeScript module of a CommonJS package). Its workers load it so too, for
 * their check module to `require` the same copy, as in the main thread (see {@link startWorker}).
 */
const COMMON_JS = loadedAsCommonJs(import.meta.url);

/**
 * Starts a worker thread: the built package's runs `worker.js` with the process's Node options but
 * those that only slow its start (see `workerExecArgv`), and loads a TypeScript check module as
 * `importCheckModule` says; from the source, tsx is registered in the worker first (`--import tsx`
 * in execArgv does not load a .ts worker entry on Node 20); a copy of strictcheck loaded as CommonJS
 * registers tsx's CommonJS hooks in the worker and `require`s its entry through them, for a check
 * module loaded as CommonJS (`moduleCommonJs`, see `loadedAsCommonJs`) (one loaded as an ES module imports the ES module copy,
 * whose registry the worker must read: the ES module entry's).
 */
function startWorker(moduleCommonJs: boolean): Worker {
  // A channel of strictcheck's own, apart from the worker's parentPort, which the code it checks may listen to.
  const { port1: control, port2 } = new MessageChannel();
  const commonJs = COMMON_JS && moduleCommonJs;
  const copies = FROM_SOURCE ? ((globalThis as Record<string, unknown>)[SOURCE_COPIES] as string | undefined) : undefined;
  const options = { stdout: false, stderr: false, workerData: { [WORKER_MARK]: true, [TS_LOADER]: commonJs ? 'cjs' : FROM_SOURCE && !copies ? 'esm' : undefined, [UNDER_VITEST]: runsVitest(), [SOURCE_COPIES]: copies, [CONTROL]: port2 }, transferList: [port2] };
  const entry = commonJs ? commonJsEntry() : FROM_SOURCE ? sourceEntry(copies) : WORKER_ENTRY;
  const w = FROM_SOURCE ? new Worker(entry, { ...options, eval: true, execArgv: [] }) : startThread(entry, { ...options, eval: commonJs });
  controls.set(w, control);
  control.unref();
  return w;
}

/**
 * @internal A worker thread of `entry` with the Node options `workerExecArgv` keeps of `execArgv`
 * (the process's); with the process's, inherited, if it keeps them all, or if they hold one that a
 * worker refuses when given it (a V8 option such as `--expose-gc`, which an inherited list drops).
 */
export function startThread(entry: URL | string, options: WorkerOptions, execArgv: readonly string[] = process.execArgv): Worker {
  const kept = workerExecArgv(execArgv);
  if (kept.length < execArgv.length) {
    try {
      return new Worker(entry, { ...options, execArgv: kept });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    }
  }
  return new Worker(entry, options);
}

const ownTsxUrls: { esm?: string | undefined; cjs?: string | undefined } = {};
/** The tsx of strictcheck's project (the user's), as a worker of this copy registers it: its ES module API, or its CommonJS one. */
function ownTsx(kind: 'esm' | 'cjs'): string {
  const api = (ownTsxUrls[kind] ??= tsxApi(import.meta.url, kind)?.url);
  if (api !== undefined) return api;
  if (FROM_SOURCE) throw new Error('strictcheck: internal error: a worker started from the source needs tsx, which is not installed');
  throw new Error('strictcheck was loaded as CommonJS (compiled from its ES modules by a loader, as tsx compiles what a CommonJS module requires), and its workers load it so through tsx, which is not installed: install tsx (npm install --save-dev tsx), or import strictcheck from an ES module');
}

/**
 * The code that starts a worker from the source: the entry's copy in the folder SOURCE_COPIES
 * names, after the prelude SOURCE_PRELUDE names if any, or else the entry, tsx registered first
 * (this repository's own).
 */
function sourceEntry(copies: string | undefined): string {
  if (copies) {
    const entry = `import(${JSON.stringify(copyPath('src/parallel/worker.ts', copies).href)})`;
    const prelude = (globalThis as Record<string, unknown>)[SOURCE_PRELUDE] as string | undefined;
    return prelude === undefined ? entry : `import(${JSON.stringify(prelude)}).then((m) => { m.default(${JSON.stringify(copies)}); return ${entry}; });`;
  }
  return `import(${JSON.stringify(ownTsx('esm'))}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_ENTRY.href)}); });`;
}

/** The code that starts a worker of a copy of strictcheck loaded as CommonJS: tsx's CommonJS hooks registered, then the entry, compiled by them as this copy was. */
function commonJsEntry(): string {
  return `require(${JSON.stringify(fileURLToPath(ownTsx('cjs')))}).register(); require(${JSON.stringify(fileURLToPath(WORKER_ENTRY))});`;
}

/** Each worker's control port, this side. */
const controls = new WeakMap<Worker, MessagePort>();

/**
 * Idle workers of runs that ended, by the module of their check: a run of a check of that module
 * takes them before it starts new ones (at most as many as there are cores are kept per module;
 * more are let go). Unref'd, they do not keep the process alive, and an error a timer of one of
 * their cases raises crashes the process, as it would without workers. A timer of theirs that does
 * not finish is stopped (see {@link watchKept}).
 */
const idle = new Map<string, Set<Kept>>();

/**
 * A worker whose run ended, and what holds the timers its cases left to that run's `timeout`: the
 * memory it shares with its last slot (see {@link Slot.state}), where it counts their callbacks as
 * it waits for the next message, the phase seen there, and its thread's clock.
 */
interface Kept {
  readonly worker: Worker;
  readonly moduleUrl: string;
  readonly timeout: number;
  readonly state: Float64Array;
  seen: SeenPhase;
  readonly clock: PhaseClock;
  /** Ends the watch of its timers while it is idle (see {@link watchKept}). */
  unwatch: () => void;
}

/** An idle worker of `moduleUrl`'s checks, now this caller's, if there is one. */
function takeIdle(moduleUrl: string): Kept | undefined {
  const kept = idle.get(moduleUrl)?.values().next().value;
  if (kept === undefined) return undefined;
  forgetIdle(kept);
  kept.unwatch();
  kept.worker.ref();
  return kept;
}

/** Keeps a worker whose run ended, idle (see {@link idle}), or lets it go if enough are kept: it ends once the timers its cases left have fired. */
function release(kept: Kept): void {
  const { worker: w, moduleUrl } = kept;
  w.unref();
  const set = idle.get(moduleUrl);
  if ((set?.size ?? 0) < availableParallelism()) idle.set(moduleUrl, (set ?? new Set<Kept>()).add(kept));
  else controls.get(w)?.postMessage('finish');
  watchKept(kept, () => forgetIdle(kept));
}

/** Forgets an idle worker, if it is one, and its module once it has none: {@link idle} holds only modules with idle workers. */
function forgetIdle(kept: Kept): void {
  const set = idle.get(kept.moduleUrl);
  if (set?.delete(kept) && set.size === 0) idle.delete(kept.moduleUrl);
}

/**
 * While a worker whose run ended waits for a run to take it (or, let go, for its timers to end), a
 * timer its cases left that computes past its run's timeout is stopped, with its worker (see
 * {@link stopKept}); looked at every tenth of the timeout, at most 10 times a second. Only what it
 * computes counts: an idle worker waits, and a timer may fire later. Where the thread's CPU time
 * cannot be read, nothing is looked at: the run that takes the worker holds the timer to the timeout (see {@link Slot.spawn}).
 */
function watchKept(kept: Kept, forget: () => void): void {
  const every = Math.max(lookEvery(kept.timeout), 100);
  let watcher: NodeJS.Timeout | undefined;
  const look = () => {
    const seen = lookInto(kept, Date.now());
    if (seen === undefined) return void (watcher = setTimeout(look, 1).unref());
    const used = kept.clock.computed(seen);
    if (used === undefined) return;
    if (seen.who !== TIMERS || used < kept.timeout) return void (watcher = setTimeout(look, every).unref());
    forget();
    stopKept(kept);
  };
  const gone = () => {
    clearTimeout(watcher);
    forget();
  };
  const late = (err: unknown) => crashLate(kept, err);
  kept.unwatch = () => {
    clearTimeout(watcher);
    kept.worker.off('exit', gone);
    kept.worker.off('error', late);
  };
  kept.worker.on('exit', gone);
  kept.worker.on('error', late);
  look();
}

/** Looks at the current phase of the worker whose shared state `of` holds (see {@link lookAt}), as `of` first saw it: a slot's, or a kept worker's since its run ended. */
function lookInto(of: { readonly state: Float64Array; seen: SeenPhase }, now: number): SeenPhase | undefined {
  const seen = lookAt(of.state, of.seen, now);
  if (seen !== undefined) of.seen = seen;
  return seen;
}

/** Stops a worker whose run ended, stuck in a timer its cases left: that run has given its verdict and cannot be blamed any more, so this process is warned. */
function stopKept({ worker, moduleUrl, timeout }: Kept): void {
  void worker.terminate();
  process.stderr.write(
    `strictcheck: warning: a timer that a run of a check of ${moduleUrl} left did not finish within that run's timeout (${timeout} ms: it loops, or blocks), once the run had ended, in a worker kept for the next run: ` +
      'the worker was stopped. The run\'s verdict stands; without workers, such a timer would hold up the process, or keep it from ending.\n',
  );
}

/** The error that worker `kept`, its run ended, raised: a callback its check module's import left (see {@link BY_IMPORT}) is the import's, named so; else a timer one of its cases left. */
function crashLate({ state, moduleUrl }: Kept, err: unknown): never {
  if (state[4] === BY_IMPORT) throw importLeft(moduleUrl, { error: describeSafely(err) });
  throw new WorkerCrashError(`a worker of a check that had ended raised an error asynchronously (in a timer a case set): without workers, it would crash the process too. The worker's error: ${describeSafely(err)}`);
}

/** @internal */
export interface SlotSetup {
  readonly init: Init;
  /** The shrink state a new worker replays, if shrinking. */
  shrink?: ShrinkState;
}

/**
 * @internal The most milliseconds a worker may take, which tests shorten:
 * - `import`: to import the check's module (or the timeout, if longer): an import is not a trial,
 *   and takes a worker's first compilations too;
 * - `stall`: beyond twice the timeout, to get to work: to start importing, to get ready once
 *   imported, to start a request after the messages sent before it, or to make a case. Getting
 *   ready and the messages before a request may replay a shrink path (cases that finished
 *   before): each phase the worker begins restarts the limit (see {@link lookInto}). A worker
 *   that never gets there must not hang the run.
 */
export const workerLimits = { import: 10_000, stall: 30_000 };

/**
 * A case that does not compute (it waits, blocked) is stopped once it has waited this many times
 * its limit (or the limit and 10 s, if longer): its thread's CPU time, which its limit counts
 * where the system gives it, would never reach the limit.
 */
const WAIT_FACTOR = 10;

/**
 * How often a slot looks at its worker's current phase while a request runs: `timeout / LOOKS` ms
 * apart. A phase is timed from the look that first sees it (the worker reads no clock), at most that
 * much after its start: a function is stopped once it has run its timeout, and at most a tenth more.
 */
const LOOKS = 10;

/** A worker's current phase as its slot saw it: its number and who runs (see {@link Slot.state}), and when the slot first saw it (`Date.now()`). */
interface SeenPhase {
  readonly count: number;
  readonly who: number;
  readonly at: number;
  /** The ms the import's callbacks had taken (`state[7]`) when it was seen. */
  readonly imported: number;
  /** Of a callback of the import ({@link BY_IMPORT}): the phase it interrupted, as seen last. */
  readonly interrupted?: SeenPhase;
}

/**
 * Looks at a worker's current phase in the memory it shares (see {@link Slot.state}): the phase as
 * first seen (`last`, if it is the one seen last), or undefined if the worker was writing it (look
 * again). A phase is timed from the look that first sees it (the worker reads no clock), at most
 * that much after its start: each look that sees one begun since the last restarts the clock of its limit.
 */
function lookAt(state: Float64Array, last: SeenPhase, now: number): SeenPhase | undefined {
  const who = state[4]!;
  const count = state[5]!;
  const resumes = state[6]!;
  const imported = state[7]!;
  // The worker counts a phase, then writes who runs: read between two readings of who, the count is that phase's or a later one's.
  if (state[4] !== who) return undefined;
  if (count === last.count && who === last.who) return last;
  // A phase a callback of the import interrupted goes on after it, as seen before, less the import's time: the callbacks of an interval do not restart its clock.
  const before = last.who === BY_IMPORT ? last.interrupted : last;
  if (who === BY_IMPORT) return { count, who, at: now, imported, ...(before !== undefined && { interrupted: before }) };
  if (before !== undefined && resumes === before.count && who === before.who) return { count, who, at: Math.min(now, before.at + imported - before.imported), imported };
  return { count, who, at: now, imported };
}

/** How many ms apart a slot looks at its worker's phase while it waits for it (see {@link LOOKS}). */
function lookEvery(timeout: number): number {
  return Math.max(1, Math.ceil(timeout / LOOKS));
}

/**
 * How long phase `seen` may yet run within `limit` ms, as `clock` counts it (see {@link Slot}), or
 * at most 0 once it ran past it: from when it was first seen, and past that, for as long as it has
 * computed less, unless it has waited, blocked, for {@link WAIT_FACTOR} times the limit.
 */
function timeLeft(seen: SeenPhase, limit: number, clock: PhaseClock, now: number): number {
  const left = seen.at + limit - now;
  if (left > 0) return left;
  const used = clock.computed(seen);
  return used !== undefined && used < limit && now - seen.at < Math.max(WAIT_FACTOR * limit, limit + 10_000) ? Math.max(1, limit - used) : left;
}

/** Whether two looks saw the same phase: a look may describe one anew (see the watch of {@link Slot.request}). */
function samePhase(a: SeenPhase, b: SeenPhase): boolean {
  return a.count === b.count && a.who === b.who && a.at === b.at;
}

/**
 * What the current phase of a worker's case (see {@link Slot.state}) has computed so far, at least.
 * The worker does not read its thread's clock when a phase starts (a file read a case), so the
 * slot bounds it from its own looks at it: what the thread computed since the last look before it
 * saw the phase, less the time from that look to when it saw the phase (at or after its start: the
 * thread computed at most that long meanwhile, on strictcheck's work or the phase before), or since
 * its first look during the phase, whichever is more. Less than the phase computed, never more.
 */
class PhaseClock {
  private last: Look;
  private phase: { readonly seen: SeenPhase; readonly before: Look; readonly first: Look } | undefined;

  constructor(
    /** The worker thread's `schedstat` file, if it has one (see {@link threadTimes}). */
    private readonly schedstat: string | undefined,
    /** Whether the check is asynchronous: a case's waits for its promises count as computing. */
    private readonly async: boolean,
  ) {
    this.last = this.look();
  }

  /** A look at the worker thread's times now. */
  private look(): Look {
    return { wall: Date.now(), times: threadTimes(this.schedstat) };
  }

  /** What phase `seen` has computed by now, at least; undefined if the thread's times cannot be read. */
  computed(seen: SeenPhase): number | undefined {
    const now = this.look();
    if (!this.phase || !samePhase(this.phase.seen, seen)) this.phase = { seen, before: this.last, first: now };
    this.last = now;
    const { before, first } = this.phase;
    if (now.times === undefined) return undefined;
    return Math.max(spent(first, now, this.async), spent(before, now, this.async) - Math.max(0, seen.at - before.wall));
  }
}

/**
 * @internal What a worker's thread computed between two looks: its CPU time, and in an
 * asynchronous check the time it slept too (its event loop waiting for promises): all the time but
 * what it waited for a CPU, runnable (whether its loop was idle or not, so that a loaded machine
 * stops no case early).
 */
export function spent(from: Look, to: Look, async: boolean): number {
  if (from.times === undefined || to.times === undefined) return 0;
  const [a, b] = [from.times, to.times];
  return async ? Math.max(0, to.wall - from.wall - (b.queued - a.queued)) : b.cpu - a.cpu;
}

/** @internal A look at a worker thread's times, taken at `wall` (`Date.now()`). */
export interface Look {
  readonly wall: number;
  readonly times: ThreadTimes | undefined;
}

/** @internal What a worker's thread has done so far, in milliseconds: run on a CPU, and waited for one (runnable). */
export interface ThreadTimes {
  readonly cpu: number;
  readonly queued: number;
}

/** The {@link ThreadTimes} of a worker from its thread's `schedstat` file (Linux), or undefined if it cannot be read. */
function threadTimes(schedstat: string | undefined): ThreadTimes | undefined {
  if (schedstat === undefined) return undefined;
  try {
    const [cpu, queued] = readFileSync(schedstat, 'utf8').split(' ').map((ns) => Number(ns) / 1e6);
    return { cpu: cpu!, queued: queued! };
  } catch {
    return undefined;
  }
}

/**
 * @internal A worker thread that runs one request at a time, replaced when it stops or crashes.
 * It shares {@link Slot.state} with its worker: `[0]` when the worker began importing the check's
 * module, or finished (`Date.now()`), `[1]` the index of its current case within the request, `[2]`
 * non-zero to ask the worker to cancel it, `[3]` the id of the request that case belongs to
 * ({@link IMPORTING} or {@link LOADED} while it starts), `[4]` who runs in the case
 * ({@link FUNCTION}, {@link SPEC} or {@link HARNESS}), or {@link TIMERS} after it, `[5]` how many such phases the worker has
 * begun, `[6]` the count of the phase the current one resumes after a callback of the check module's
 * import interrupted it ({@link BY_IMPORT}; NaN for a phase begun anew), `[7]` the ms those callbacks took in all. A case times out once its function has run `timeout` ms from its start, as seen by the
 * slot (see {@link LOOKS}; neither the messaging, nor the worker's own start, nor the making of the
 * case, nor the spec counted), and, where the system gives the worker thread's CPU time (Linux), once it has
 * also computed that long, so that a loaded machine does not stop it early (see
 * {@link WAIT_FACTOR}); an asynchronous case's waiting for its promises (its worker's thread
 * asleep, not waiting for a CPU) counts as computing, so that one that never settles is stopped
 * after `timeout` too. A timer the cases left that runs while the worker waits for them is held
 * to the timeout alike. The spec has a limit of its own, counted alike ({@link specLimit}); making
 * a case, the stall limit. The main thread stops a case from outside, as a worker in an endless
 * loop cannot answer.
 */
export class Slot {
  worker: Worker | null = null;
  readonly state = new Float64Array(new SharedArrayBuffer(8 * Float64Array.BYTES_PER_ELEMENT));
  private ready: Promise<void> | null = null;
  private pending: ((o: Outcome) => void) | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  /** The crash of the worker while it had no request (a timer of an earlier case): the outcome of the next request. */
  private lost: Outcome | null = null;
  /** How many requests the current worker has answered. */
  private answered = 0;
  /** The id of the request sent last: the worker has begun its case once `state[3]` says so. */
  private requested = NaN;
  private closed = false;
  /** The worker thread's `schedstat` file, if it has one (see {@link threadTimes}). */
  private clock: string | undefined;
  /** Whether the worker has become ready: only such a worker is kept idle once the run ends. */
  private isReady = false;
  /** Takes this slot's listeners off its worker, to hand it back idle. */
  private detach: () => void = () => {};
  /** The worker's current phase, as this slot first saw it (see {@link lookInto}). */
  seen: SeenPhase = { count: NaN, who: HARNESS, at: 0, imported: 0 };

  constructor(
    private readonly setup: SlotSetup,
    readonly timeout: number,
    private readonly stats: RunStats,
  ) {}

  private spawn(): Promise<void> {
    if (this.closed) throw new Error('the run is over');
    const pooled = takeIdle(this.setup.init.moduleUrl);
    const commonJs = loadedAsCommonJs(this.setup.init.moduleUrl);
    const w = pooled?.worker ?? startWorker(commonJs);
    this.stats.started++;
    this.worker = w;
    // A worker of an earlier run may yet crash from a timer one of its cases set: none of its crashes is surely a request's own.
    this.answered = pooled ? 1 : 0;
    this.isReady = false;
    this.state[3] = -1;
    this.state[4] = HARNESS;
    this.state[6] = NaN;
    let settle!: (err?: Error) => void;
    const ready = new Promise<void>((res, rej) => (settle = (err) => (err ? rej(err) : res())));
    const stop = () => {
      this.worker = null;
      this.ready = null;
      void w.terminate();
    };
    // A worker that does not become ready (its import never ends) is stopped: the run gets an error, not a hang.
    const spawned = Date.now();
    const importLimit = this.importLimit();
    const watch = () => {
      if (this.worker !== w) return;
      const now = Date.now();
      // A worker kept idle that has not begun the init runs a timer its earlier run left: held to that run's timeout from now, as a request holds one before it begins.
      const earlier = pooled !== undefined && this.state[3] === -1;
      if (earlier) {
        const timer = lookInto(pooled, now);
        if (timer === undefined) return void (watcher = setTimeout(watch, 1).unref());
        const left = timer.who === TIMERS ? timeLeft({ ...timer, at: Math.max(spawned, timer.at) }, pooled.timeout, pooled.clock, now) : Infinity;
        if (left <= 0) {
          this.worker = null;
          this.ready = null;
          stopKept(pooled);
          // Not this run's: it gets a fresh worker (or another idle one).
          return void this.alive().then(() => settle(), settle);
        }
      }
      const seen = lookInto(this, now);
      if (seen === undefined) return void (watcher = setTimeout(watch, 1).unref());
      const importing = this.state[3] === IMPORTING;
      const loaded = this.state[3] === LOADED;
      // Once it has imported, a worker may warm up and replay a shrink path before it is ready, case by case.
      const left = importing ? this.state[0]! + importLimit - now : (loaded ? Math.max(this.state[0]!, seen.at) : spawned) + this.stallLimit() - now;
      if (left > 0) {
        // One that has not begun importing is looked at again soon: its import is held to the import limit from the start it writes, not to the stall limit.
        const lookAgain = earlier ? lookEvery(pooled.timeout) : importing || loaded ? Infinity : lookEvery(importLimit);
        watcher = setTimeout(watch, Math.min(left, lookAgain)).unref();
        return;
      }
      stop();
      const moduleUrl = this.setup.init.moduleUrl;
      // Stuck in a callback its import left (see BY_IMPORT): the import's fault, no case's.
      if (loaded && seen.who === BY_IMPORT) return settle((this.stats.ended ??= importLeft(moduleUrl, { ms: this.stallLimit() })));
      settle(
        new TypeError(
          importing
            ? `a worker could not load the check: importing ${moduleUrl} did not finish within ${importLimit} ms (the larger of the timeout and ${workerLimits.import} ms). Does it wait for something, or loop, at its top level? ${WORKER_RULE}`
            : `a worker did not get ready within ${this.stallLimit()} ms, though it ${loaded ? `had imported ${moduleUrl}` : 'had not yet begun to import the check'}`,
        ),
      );
    };
    // Unref'd: the watch of a worker a finished run no longer waits for must not keep the process alive.
    let watcher = setTimeout(watch, pooled ? lookEvery(pooled.timeout) : Math.min(importLimit, this.stallLimit())).unref();
    ready.then(
      () => clearTimeout(watcher),
      () => clearTimeout(watcher),
    );
    const onMessage = (m: FromWorker) => {
      if (this.worker !== w) return;
      if (m.type === 'ready') {
        this.clock = m.clock;
        this.isReady = true;
        settle();
      }
      else if (m.type === 'initError') settle(new TypeError(m.message));
      else if (m.type === 'refused') {
        // The module runs checks when imported: the run ends with that, and no worker is started again.
        this.stats.ended ??= new TypeError(m.message);
        stop();
        settle(this.stats.ended);
        const p = this.pending;
        this.pending = null;
        p?.({ kind: 'crash', error: m.message, alone: false });
      } else if (m.type === 'reply' && this.pending) {
        this.answered++;
        const p = this.pending;
        this.pending = null;
        p({ kind: 'reply', data: m });
      }
    };
    const died = (error: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.ready = null;
      const ended = this.diedEnds(error, pooled === undefined);
      settle(ended ?? new Error(`a worker stopped while starting: ${error}`));
      const p = this.pending;
      this.pending = null;
      if (p) p({ kind: 'crash', error, alone: this.alone() });
      else this.lost = { kind: 'crash', error, alone: false };
    };
    const onError = (e: unknown) => died(describeSafely(e));
    const onExit = (code: number) => died(`the worker exited with code ${code}`);
    w.on('message', onMessage).on('error', onError).on('exit', onExit);
    this.detach = () => void w.off('message', onMessage).off('error', onError).off('exit', onExit);
    send(w, { type: 'init', ...this.setup.init, commonJs, state: this.state.buffer as SharedArrayBuffer, ...(this.setup.shrink ? { shrink: this.setup.shrink } : {}) });
    this.ready = ready;
    return ready;
  }

  /**
   * What the death of the worker (`fresh`: started for this run) with `error` ends the run with, if
   * anything: a callback the check module's import left was running, or, for the run's second fresh
   * worker to die so, it had begun no case (see {@link RunStats}). What kills a fresh worker before
   * its first case is no case's: its start, the import above all.
   */
  private diedEnds(error: string, fresh: boolean): Error | undefined {
    const { moduleUrl } = this.setup.init;
    if (this.state[4] === BY_IMPORT) return (this.stats.ended ??= importLeft(moduleUrl, { error }));
    if (fresh && this.answered === 0 && this.state[3] !== this.requested && ++this.stats.startCrashes >= 2) return (this.stats.ended ??= couldNotStart(moduleUrl, this.stats.startCrashes, error));
    return this.stats.ended;
  }

  /**
   * Whether what stopped the worker during the request sent last is surely that request's own: the
   * worker had answered none before, and had begun its case. Before it begins, what runs is not the
   * case (a timer its module's import left, in a fresh worker), nor, for a shrink candidate past the
   * last, is there a case to blame.
   */
  private alone(): boolean {
    return this.answered === 0 && this.state[3] === this.requested;
  }

  /** How long a worker may take to import the check's module, and a callback the import left may run (see {@link workerLimits}). */
  private importLimit(): number {
    return Math.max(this.timeout, workerLimits.import);
  }

  /** How long a worker may take to get to work, user code aside (see {@link workerLimits}). */
  private stallLimit(): number {
    return Math.min(MAX_TIMER, 2 * this.timeout + workerLimits.stall);
  }

  /** Starts the worker if there is none, and waits until it is ready. */
  async alive(): Promise<void> {
    await (this.worker && this.ready ? this.ready : this.spawn());
  }

  /** Sends a message without waiting for an answer (to a live worker only). */
  post(m: ToWorker): void {
    if (this.worker) send(this.worker, m);
  }

  /**
   * One request at a time: sends `m`, resolves with the reply, or a timeout (worker stopped), or a
   * crash (a worker that does not start on the request in time counts as one). Rejects once a
   * worker of the run refused to run a check (see {@link refuseInWorker}), or something else ended the run (see {@link RunStats}).
   */
  request<T extends RequestType>(m: RequestBody<T>): Promise<Outcome<T>> {
    const run = async (): Promise<Outcome> => {
      if (this.stats.ended) throw this.stats.ended;
      const lost = this.lost;
      this.lost = null;
      if (lost !== null) return lost;
      await this.alive();
      const w = this.worker!;
      const id = this.nextId++;
      this.requested = id;
      const sent = Date.now();
      const clock = new PhaseClock(this.clock, this.setup.init.async);
      const look = lookEvery(this.timeout);
      return new Promise<Outcome>((resolve) => {
        const check = () => {
          if (this.pending !== done) return;
          const now = Date.now();
          const phase = lookInto(this, now);
          if (phase === undefined) return void (timer = setTimeout(check, 1));
          const started = this.state[3] === id;
          // The clock runs from when the slot first saw the current phase of the request's case; before the case, from when it sent the request, or saw a phase of the messages before it begin.
          // A worker that has not begun the request, still in the phase of the timers its last request waited for, is idle but for them: one of them runs (it would be a 30 s stall otherwise).
          // A callback the check module's import left is no case's, begun or not: the import's, held to its limit.
          const seen = started ? phase : { ...phase, who: phase.who === TIMERS || phase.who === BY_IMPORT ? phase.who : HARNESS, at: Math.max(sent, phase.at) };
          const { who } = seen;
          const limit = who === FUNCTION || who === TIMERS ? this.timeout : who === SPEC ? specLimit(this.timeout) : who === BY_IMPORT ? this.importLimit() : this.stallLimit();
          const left = who === HARNESS ? seen.at + limit - now : timeLeft(seen, limit, clock, now);
          if (left > 0) {
            timer = setTimeout(check, Math.min(left, look));
            return;
          }
          this.pending = null;
          this.worker = null;
          this.ready = null;
          void w.terminate();
          if (who === BY_IMPORT) this.stats.ended ??= importLeft(this.setup.init.moduleUrl, { ms: limit });
          if (who === TIMERS) return resolve({ kind: 'timer', ms: limit, alone: this.alone() });
          if (who !== HARNESS) return resolve({ kind: 'timeout', spec: who === SPEC });
          const error = started ? `the worker did not finish making a case (its inputs and context) within ${limit} ms` : `the worker did not start on its request within ${limit} ms`;
          resolve({ kind: 'crash', error, alone: false, ...(started && { making: true as const }) });
        };
        let timer = setTimeout(check, look);
        const done = (o: Outcome) => {
          clearTimeout(timer);
          resolve(o);
        };
        this.pending = done;
        send(w, { ...m, id } as Request);
      });
    };
    const ended = () => {
      if (this.stats.ended) throw this.stats.ended;
    };
    const p = this.chain.then(run, run).then((o) => (ended(), o));
    this.chain = p.catch(() => undefined);
    return p;
  }

  /**
   * Once a run passed: lets the timers the worker's cases left crash it, or run past the timeout,
   * waiting for them up to `grace` ms. Resolves with what they came to, if anything (nothing
   * without a worker).
   */
  async drain(grace: number): Promise<Late | undefined> {
    if (!this.worker && !this.lost) return undefined;
    const out = await this.request({ type: 'drain', grace });
    return out.kind === 'crash' || out.kind === 'timer' ? out : undefined;
  }

  /** Stops the worker, if any, and forgets a crash it had while idle: the next request starts a fresh one. */
  restart(): void {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    this.lost = null;
    if (w) void w.terminate();
  }

  /** Stops the worker; a request still waiting for it is answered as a crash, and none is started again. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    const p = this.pending;
    this.pending = null;
    p?.({ kind: 'crash', error: 'the run is over', alone: false });
    if (!w) return;
    // A worker at work (a case that does not end), or not yet ready, is stopped. An idle one is kept for the next run (see idle).
    if (p || !this.isReady) return void (await w.terminate());
    this.detach();
    release({ worker: w, moduleUrl: this.setup.init.moduleUrl, timeout: this.timeout, state: this.state, seen: this.seen, clock: new PhaseClock(this.clock, false), unwatch: () => {} });
  }
}

/** @internal How long a case run again to blame a crash on it, or a passing run, waits for the timers its cases set. */
export function graceOf(timeout: number): number {
  return Math.min(GRACE, timeout / 2);
}

/**
 * @internal Once a run with workers passed: waits up to `grace` ms for the timers its cases left,
 * and rejects with a {@link WorkerCrashError} if one raises an error, or does not finish, so that
 * the run does not pass. A run without workers cannot wait (it is synchronous): the error crashes
 * its process, and a timer that never ends keeps it from ending. `unblamed`: see {@link crashedAfterLast}.
 */
export async function afterLastCase(slots: readonly Slot[], grace: number, unit: string, unblamed?: string): Promise<void> {
  const crash = await drained(slots, grace);
  if (crash) throw crashedAfterLast(crash.late, grace, unit, unblamed);
}

/** @internal Waits up to `grace` ms for the timers the cases of `slots` left: the crash one of them caused, or the one that did not finish, if any, with the slot it happened in. */
export async function drained(slots: readonly Slot[], grace: number): Promise<{ readonly late: Late; readonly slot: Slot } | undefined> {
  const lates = await Promise.all(slots.map((s) => s.drain(grace)));
  const k = lates.findIndex((c) => c !== undefined);
  return k < 0 ? undefined : { late: lates[k]!, slot: slots[k]! };
}

/**
 * @internal The error of a run that passed, but whose worker crashed, or ran a timer that did not
 * finish, after its last case (`unit`), while it waited for their timers; for a timer, with
 * `unblamed`, the sentence that says why no case can be blamed, if the run's mode gives one.
 */
export function crashedAfterLast(late: Late, grace: number, unit: string, unblamed?: string): WorkerCrashError {
  if (late.kind === 'timer') {
    return new WorkerCrashError(
      `a timer that a ${unit} left did not finish after the last ${unit}: it ran past the timeout (${late.ms} ms) while the run waited for the timers its ${unit}s left (it loops, or blocks). ` +
        `${unblamed === undefined ? '' : `${unblamed} `}Without workers, it would keep the process from ending.`,
    );
  }
  return new WorkerCrashError(
    `a worker crashed after the last ${unit}: a ${unit} it ran raised an error asynchronously (e.g. in a timer) once it had finished, within the ${grace} ms the run waits for such timers. ` +
      `Without workers, that error would crash the process once raised. The worker's error: ${late.error}`,
  );
}

/**
 * What the slots of a run share: the workers used (started, or taken idle), how many fresh workers
 * died before they began a case, and what ends the run, if anything: a worker refused to run a
 * check (see {@link refuseInWorker}), a callback the check module's import left raised an error or
 * did not finish, or fresh workers died twice before they began a case (see {@link couldNotStart}).
 */
interface RunStats {
  started: number;
  startCrashes: number;
  ended?: Error;
}

/** @internal Starts `count` workers, waits until they are ready, runs `body` with them, and stops them. */
export async function withWorkers<R>(count: number, setup: SlotSetup, timeout: number, body: (slots: Slot[], info: () => { workersStarted: number; startupMs: number }) => Promise<R>): Promise<R> {
  const stats: RunStats = { started: 0, startCrashes: 0 };
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
