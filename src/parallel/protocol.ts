/**
 * The messages between a run's main thread and its worker threads, and the memory they share.
 * Each request carries an `id`; the worker answers it with a reply of the same `id`.
 * @module
 */
import type { Comparison } from '../spec/options.ts';
import type { DefinedCheck } from '../spec/registry.ts';
import type { Settings } from '../spec/options.ts';

/** An error as a worker sends it: a mismatch keeps what it says of the value (the value cannot be sent). */
export interface SentError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly path?: string;
  readonly expected?: string;
}

/** Where shrinking is: the failing trial, the candidates chosen so far, and whether it did not finish (a timeout or crash). */
export interface ShrinkState {
  readonly i: number;
  readonly path: number[];
  readonly fatal: boolean;
}

/** What a worker is told of its run when it starts. */
export interface Init {
  readonly moduleUrl: string;
  readonly name: string;
  readonly budget: number;
  /** The comparison of the run's options, if any and not the check's own. */
  readonly compare?: Comparison | readonly Comparison[] | undefined;
  /** Whether the run compares as the check was defined to (its comparison may be a function, which cannot be sent). */
  readonly ownCompare: boolean;
  /** An asynchronous check (checkSpecAsync): each case is awaited before the next starts. */
  readonly async: boolean;
  /** Random checking: the run's seed, trials and largest size. */
  readonly seed?: number;
  readonly trials?: number;
  readonly maxSize?: number;
  /**
   * Exhaustive checking: pruning, how many workers wait for work (shared), how many more cases
   * `maxCases` allows (shared: each case is taken from it before it runs), and whether a failing
   * case's diagram is drawn with Unicode.
   */
  readonly prune?: boolean;
  readonly hunger?: SharedArrayBuffer;
  readonly allowance?: SharedArrayBuffer;
  readonly unicode?: boolean;
}

/**
 * @internal What a worker is told of a run's comparison: the run's own, if it is the check's (given
 * to defineCheck, a function perhaps, which the worker finds itself), else the settings' (by name:
 * a function cannot be sent, and is refused).
 */
export function workerCompare(check: DefinedCheck<readonly unknown[], unknown>, { compare }: Pick<Settings<'exhaustive'>, 'compare'>): Pick<Init, 'compare' | 'ownCompare'> {
  if (check.compare !== undefined && compare === check.compare) return { ownCompare: true };
  if ([compare].flat().some((c) => typeof c === 'function')) {
    throw new TypeError('compare: comparisons given as functions cannot be sent to workers; give them to defineCheck(..., { compare }) and run the check itself (assertSpec(check, options))');
  }
  return { compare, ownCompare: false };
}

/** The requests a worker answers, by type, each with what its reply holds. */
export interface Requests {
  /**
   * Runs `count` trials, `first`, `first + step`, …, in order, up to the first that fails or throws,
   * or the first past `bound[0]` (shared by the run's workers: the smallest failing trial known); then waits up to `grace` ms for the timers they set. Replies how many passed (`ran`),
   * whether the next `failed` or threw, and their coverage counts (see CoverageTally).
   */
  trials: { request: { first: number; step: number; count: number; bound: SharedArrayBuffer; grace?: number }; reply: { ran: number; counts: readonly number[]; failed: boolean; thrown?: SentError } };
  /** Enumerates the subtree at `path` of depth `depth` (exhaustive checking); replies with the coverage counts of the cases that passed (see CoverageTally). */
  cases: { request: { depth: number; path: number[] }; reply: { cases: number; runs: number; counts: readonly number[]; rest?: number[][]; failed?: number[]; seen?: string; thrown?: SentError; cancelled?: true } };
  /** Runs shrink candidate `j` of the current case. */
  cand: { request: { j: number; grace?: number }; reply: { end?: true; ok?: boolean; thrown?: SentError } };
  /** Once a run passed: waits up to `grace` ms for the timers its cases left. */
  drain: { request: { grace: number }; reply: Record<never, never> };
  /** Draws the current case of shrinking as the worker sees it. */
  seen: { request: { unicode: boolean }; reply: { seen: string } };
}

export type RequestType = keyof Requests;
/** A request of type `T`, before the slot gives it its id. */
export type RequestBody<T extends RequestType = RequestType> = { [K in T]: { type: K } & Requests[K]['request'] }[T];
/** A request as sent. */
export type Request = RequestBody & { id: number };
/** The reply to a request of type `T`. */
export type Reply<T extends RequestType = RequestType> = Requests[T]['reply'];

/** Messages that need no reply: shrinking starts at trial `i`, or follows candidate `j`. */
export type Notice = { type: 'shrinkStart' } & ShrinkState | { type: 'advance'; j: number };

/** Everything the main thread sends a worker on its port; `init` says too whether the main thread loaded the check's module as CommonJS, for the worker to load it so (see importCheckModule). */
export type ToWorker = ({ type: 'init'; state: SharedArrayBuffer; shrink?: ShrinkState; commonJs: boolean } & Init) | Notice | Request;

/** Everything a worker sends on its port: it is ready (with its thread's CPU clock, if any), could not load the check, refused to run one (see refuseInWorker), or a reply. */
export type FromWorker =
  | { type: 'ready'; clock: string | undefined }
  | { type: 'initError'; message: string }
  | { type: 'refused'; message: string }
  | ({ type: 'reply'; id: number } & Reply);

/**
 * What a request to a worker came to. A timeout blames the `spec` (or the comparison) when it was
 * running, else the function. A crash is `alone` when the worker had answered no request before
 * and had begun this request's case: then it is surely this request's own.
 * `making`: the worker was stopped while it made a case (its inputs and context), which never ended.
 * A `timer`: the worker was stopped as a timer its cases left ran past the timeout (`ms`) while it
 * waited for them (see {@link TIMERS}); `alone` as for a crash.
 */
export type Outcome<T extends RequestType = RequestType> =
  | { kind: 'reply'; data: Reply<T> }
  | { kind: 'timeout'; spec: boolean }
  | Late;

/** What the timers a worker's cases left, or whatever it ran outside them, came to: a crash, or a timer that did not finish (see {@link Outcome}). */
export type Late = { kind: 'crash'; error: string; alone: boolean; making?: true } | { kind: 'timer'; ms: number; alone: boolean };

/**
 * Who runs in a worker's current case, in `Slot.state[4]`: the function (observed under its
 * context), the spec (and the comparison), strictcheck itself (making the case's inputs and
 * context, before the function), or the timers the cases left (the worker waits for them after a
 * case, or a batch of them). The function's run counts against the timeout, and so does a timer
 * that runs: it is the function's code, though no one case's when cases ran back to back.
 */
export const FUNCTION = 0;
export const SPEC = 1;
export const HARNESS = 2;
export const TIMERS = 3;
/**
 * Who runs: a callback the check module's import left (a timer it set, or one that such a callback
 * set), wherever it interrupts. It is no case's, but the import's: held to the import's limit, and
 * its error or a run past that limit ends the run, naming the import.
 */
export const BY_IMPORT = 4;

/** `Slot.state[3]` while a worker imports the check's module, and once it has. */
export const IMPORTING = -2;
export const LOADED = -3;

/** The `workerData` key of a worker's control port: a channel of strictcheck's own, apart from the worker's parentPort, which the code it checks may listen to. */
export const CONTROL = 'strictcheck.control';

/** Lowers a shared bound to `value`, if it is above it. */
export function lower(bound: Int32Array, value: number): void {
  for (let b = Atomics.load(bound, 0); b > value; b = Atomics.load(bound, 0)) if (Atomics.compareExchange(bound, 0, b, value) === b) return;
}

/** Decrements a shared counter if it is positive: whether it did. */
export function takeOne(counter: Int32Array): boolean {
  for (let h = Atomics.load(counter, 0); h > 0; h = Atomics.load(counter, 0)) if (Atomics.compareExchange(counter, 0, h, h - 1) === h) return true;
  return false;
}
