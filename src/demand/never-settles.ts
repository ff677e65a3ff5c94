/**
 * Telling that an asynchronous observation can never end. Node emits `beforeExit` when its event
 * loop has emptied: no timer, I/O or immediate is left to run. A promise still pending then waits on
 * nothing that can ever run, so an observation awaiting its function's promise (or an iteration of
 * its async result) is decided as never settling, rather than the process ending with no word
 * (exit code 13 under a top-level await) or a test runner cancelling its test. A function merely
 * slow has its timer or I/O pending, so the loop does not empty while it runs.
 *
 * While an observation waits, the process's own `beforeExit` listeners (node:test's, which cancels
 * the tests pending when the loop empties) are set aside, as one emit calls every listener: on an
 * emptied loop with no observation waiting, they are called as Node would call them. A worker
 * thread's port, or a test runner's channel (vitest's), keeps its loop from emptying: there the
 * check's `timeout` or the runner's stops such a function.
 * @module
 */
import { safeInstanceof } from '../lazy/thrown.ts';
import { setAsideListeners, type SetAside } from './process-listeners.ts';

/** What an asynchronous observation records as thrown when its function's promise, or an iteration of its result, was pending with nothing left to run. */
export class NeverSettlesError extends Error {
  /** Always `'NeverSettlesError'`. */
  override name = 'NeverSettlesError';
  /** Why it is known never to settle, as messages say it. */
  static readonly why = 'its promise was pending with nothing left to run (the event loop had emptied)';
  constructor() {
    super(`the function never settles: ${NeverSettlesError.why}`);
  }
}

type Listener = (code: number) => void;

/** The observations waiting, each told by its call when the loop empties. */
const waiting = new Set<() => void>();
/** The process's `beforeExit` listeners, set aside while observations wait. */
let setAside: SetAside<Listener> | undefined;

function onLoopEmpty(code: number): void {
  if (waiting.size === 0) {
    setAside?.forward(code);
    return;
  }
  // Every one waiting is stuck: nothing left can run to settle it.
  for (const stuck of [...waiting]) stuck();
  // Node ends the process unless the loop has work once the listeners return: an immediate turns
  // it once more, for the observations told to go on (one that waits on nothing again is told again).
  setImmediate(() => {});
}

function wait(stuck: () => void): void {
  if (waiting.size === 0) setAside = setAsideListeners('beforeExit', onLoopEmpty);
  waiting.add(stuck);
}

function stopWaiting(stuck: () => void): void {
  if (!waiting.delete(stuck) || waiting.size > 0) return;
  setAside?.restore();
  setAside = undefined;
}

/**
 * @internal `value` awaited, unless the event loop empties while it is pending: then it throws
 * {@link NeverSettlesError}.
 */
export async function unlessNeverSettling<T>(value: T | PromiseLike<T>): Promise<Awaited<T>> {
  let stuck!: () => void;
  const emptied = new Promise<never>((_, reject) => (stuck = () => reject(new NeverSettlesError())));
  wait(stuck);
  try {
    return (await Promise.race([value, emptied])) as Awaited<T>;
  } finally {
    stopWaiting(stuck);
  }
}

safeInstanceof(NeverSettlesError);
