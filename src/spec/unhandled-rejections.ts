/**
 * The rejections a function under an asynchronous check leaves unhandled. While a run holds it,
 * this thread's one `unhandledRejection` listener takes a reason Node reports while a case runs
 * as that case's failure (see `runCaseAsync`), where Node would end the process and the run with
 * it; a forced hole's {@link Refine} (a pull made ahead meeting a hole of the exhaustive mode) is
 * no failure: the hole noted itself where it was forced, and its case is refined. A reason told
 * while no case runs is not the run's: it goes to the listeners the process had, set aside while
 * the run holds it (a test runner's, which would blame a case's rejection on the test), or, with
 * none, ends the process as Node would.
 * @module
 */
import { describeSafely } from '../demand/describe.ts';
import { Refine } from '../engine/series.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** The failure of a case whose function left a rejected promise unhandled (e.g. a pull made ahead that it never awaited). */
export class UnhandledRejectionError extends Error {
  /** Always `'UnhandledRejectionError'`. */
  override name = 'UnhandledRejectionError';
  constructor(
    /** What the promise rejected with. */
    readonly reason: unknown,
  ) {
    super(`the function left a rejection unhandled: ${describeSafely(reason)}`);
  }
}

type Listener = (reason: unknown, promise: Promise<unknown>) => void;

/** @internal A case running: the first reason it left unhandled, if any. */
export interface CaseRejections {
  left?: { readonly reason: unknown };
}

/** The cases running in this thread: one at a time, unless runs are made at once (then each is blamed, none can be told apart). */
const running = new Set<CaseRejections>();
/** How many runs hold the listener. */
let holders = 0;
/** The listeners the process had when the first run took hold, set aside until the last lets go. */
let setAside: Listener[] = [];

function onUnhandled(reason: unknown, promise: Promise<unknown>): void {
  if (reason instanceof Refine) return;
  if (running.size > 0) {
    for (const c of running) c.left ??= { reason };
    return;
  }
  for (const l of setAside) l.call(process, reason, promise);
  // With no listener but this one, as Node would: the process ends with it.
  if (setAside.length === 0 && process.listenerCount('unhandledRejection') === 1) throw reason;
}

/** @internal Makes this thread's rejections left unhandled the cases' (see the module), until the returned function is called; a worker holds them for its life. */
export function holdRejections(): () => void {
  if (holders++ === 0) {
    setAside = process.rawListeners('unhandledRejection') as Listener[];
    for (const l of setAside) process.off('unhandledRejection', l);
    process.on('unhandledRejection', onUnhandled);
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders > 0) return;
    process.off('unhandledRejection', onUnhandled);
    // In their places, before any added meanwhile.
    for (let i = setAside.length - 1; i >= 0; i--) process.prependListener('unhandledRejection', setAside[i]!);
    setAside = [];
  };
}

/** @internal Runs `run`, an asynchronous check, holding this thread's rejections left unhandled (see {@link holdRejections}). */
export async function holdingRejections<T>(run: () => T | Promise<T>): Promise<T> {
  const release = holdRejections();
  try {
    return await run();
  } finally {
    // What the last case's spec left is told a turn later, while the run still holds (no case runs).
    await new Promise((r) => setImmediate(r));
    release();
  }
}

/** @internal A case starts running: the rejections told until {@link endCase} are its own. */
export function startCase(): CaseRejections {
  const c: CaseRejections = {};
  running.add(c);
  return c;
}

/** @internal Case `c` ended: what is told from now is not its own. */
export function endCase(c: CaseRejections): void {
  running.delete(c);
}

safeInstanceof(UnhandledRejectionError);
