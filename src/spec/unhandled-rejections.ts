/**
 * The rejections a function under an asynchronous check leaves unhandled. While a run holds them,
 * this thread's one `unhandledRejection` listener charges a rejection to the run and case whose
 * function made it: each run, and each case in it, runs in an async context of its own
 * (`AsyncLocalStorage`), which promises and timers made within carry, and Node runs the listener
 * in the context of the rejected promise. So runs made at once in one thread (a `Promise.all` of
 * checks, tests run concurrently) do not blame each other:
 * - made by a case still running: that case fails with an {@link UnhandledRejectionError} (see
 *   `observeCaseAsync`);
 * - made by a case that has ended (a timer it left) while its run goes on: the run fails with a
 *   {@link LateRejectionError} naming the case;
 * - made by no case of any run, while runs are open: none can be told to have made it (a function
 *   may reject a promise made elsewhere), so every run open fails with an
 *   {@link UnattributedRejectionError} naming them, never as a counterexample;
 * - made by a run outside its cases (its spec), or by a case whose run has ended, or with no run
 *   open: not a run's, it goes to the listeners the process had, set aside while runs hold them
 *   (a test runner's, which would blame a case's rejection on the test), or, with none, ends the
 *   process as Node would.
 *
 * A forced hole's {@link Refine} (a pull made ahead meeting a hole of the exhaustive mode) is no
 * failure: the hole noted itself where it was forced, and its case is refined.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describeSafely } from '../demand/describe.ts';
import { Refine } from '../engine/series.ts';
import { safeInstanceof } from '../lazy/thrown.ts';
import { setAsideListeners, type SetAside } from '../demand/process-listeners.ts';

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

/**
 * What an asynchronous check rejects with when its function left a rejection that came after its
 * case had ended (a timer it left rejected a promise), while the run went on: the case was judged
 * without it, so the message names the case (its number in the run and its inputs), unshrunk.
 * Running that case again may not reproduce it: it depends on timing.
 */
export class LateRejectionError extends Error {
  /** Always `'LateRejectionError'`. */
  override name = 'LateRejectionError';
  constructor(
    /** What the promise rejected with. */
    readonly reason: unknown,
    /** The inputs of the case whose function left it. */
    readonly inputs: readonly unknown[],
    caseShown: string,
  ) {
    super(`the function left a rejection unhandled that came after its case ended (a timer or a promise it left rejected later): ${describeSafely(reason)}. It was left by ${caseShown}, judged before the rejection came: that case is not shrunk, and run again it may not reproduce it`);
  }
}

/**
 * What the asynchronous checks open at once in one thread reject with when a rejection was left
 * unhandled whose promise none of their cases made (a function rejected a promise made elsewhere,
 * or code other than the checks' left it): it could not be attributed to one, so none is blamed.
 */
export class UnattributedRejectionError extends Error {
  /** Always `'UnattributedRejectionError'`. */
  override name = 'UnattributedRejectionError';
  constructor(
    /** What the promise rejected with. */
    readonly reason: unknown,
    /** The runs open when it came, named as their calls: `checkSpecAsync of take`. */
    readonly runs: readonly string[],
  ) {
    super(
      `a rejection was left unhandled while asynchronous checks ran, and it could not be attributed to one of them: its promise was made outside their cases (by code other than theirs, or made elsewhere and rejected by a function): ${describeSafely(reason)}. ` +
        `Runs open: ${runs.join('; ')}. Run each alone to see whether its function left it`,
    );
  }
}

type Listener = (reason: unknown, promise: Promise<unknown>) => void;

/** A run holding rejections: its name, and the error of a late rejection of its cases (or one no run made), which fails it. */
class RunRejections {
  failure?: Error;
  constructor(readonly name: string) {}
}

/** A case running, or run: the first reason it left unhandled while it ran, if any. */
class CaseRejections {
  left?: { readonly reason: unknown };
  ended = false;
  constructor(
    readonly run: RunRejections | undefined,
    /** The inputs a message names it by, made when one does. */
    readonly inputs: () => readonly unknown[],
    /** Inputs as a message shows them. */
    readonly show: (inputs: readonly unknown[]) => string,
  ) {}
}

/** The run or case whose async context this is. */
const context = new AsyncLocalStorage<RunRejections | CaseRejections>();
/** The runs holding rejections in this thread. */
const open = new Set<RunRejections>();
/** How many hold the listener (the runs, and a worker for its life). */
let holders = 0;
/** The listeners the process had when the first run took hold, set aside until the last lets go. */
let setAside: SetAside<Listener> | undefined;

function onUnhandled(reason: unknown, promise: Promise<unknown>): void {
  if (reason instanceof Refine) return;
  const made = context.getStore();
  if (made instanceof CaseRejections) {
    if (!made.ended) {
      made.left ??= { reason };
      return;
    }
    if (made.run !== undefined && open.has(made.run)) {
      if (made.run.failure) return;
      const inputs = made.inputs();
      return void (made.run.failure = new LateRejectionError(reason, inputs, `a case of ${made.run.name}, on inputs ${made.show(inputs)}`));
    }
  } else if (made === undefined && open.size > 0) {
    const names = [...open].map((r) => r.name);
    for (const r of open) r.failure ??= new UnattributedRejectionError(reason, names);
    return;
  }
  const forwarded = setAside?.forward(reason, promise) ?? 0;
  // With no listener but this one, as Node would: the process ends with it.
  if (forwarded === 0 && process.listenerCount('unhandledRejection') === 1) throw reason;
}

/** @internal Makes this thread's rejections left unhandled the cases' (see the module), until the returned function is called; a worker holds them for its life. */
export function holdRejections(): () => void {
  if (holders++ === 0) setAside = setAsideListeners('unhandledRejection', onUnhandled);
  return () => {
    if (--holders > 0) return;
    setAside?.restore();
    setAside = undefined;
    // Promises made from now need no context: the hooks that give them one cost every promise something.
    context.disable();
  };
}

/**
 * @internal Runs `run`, an asynchronous check named `name` (`checkSpecAsync of take`), holding
 * this thread's rejections left unhandled (see {@link holdRejections}), in a context of its own:
 * after a late or unattributed rejection (see the module), it runs no more cases and rejects with
 * its error.
 */
export async function holdingRejections<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const release = holdRejections();
  const held = new RunRejections(name);
  open.add(held);
  let outcome: { readonly value: T } | { readonly error: unknown };
  try {
    // A run failed by a late rejection stops at its next case (see runAsCase): its case running ends with its rejections held.
    outcome = { value: await context.run(held, async () => run()) };
  } catch (error) {
    outcome = { error };
  }
  // What the last case left, and what its spec left, is told a turn later, while the run still holds (no case runs).
  await new Promise((r) => setImmediate(r));
  open.delete(held);
  release();
  if ('error' in outcome) throw outcome.error;
  if (held.failure) throw held.failure;
  return outcome.value;
}

/**
 * @internal Runs `body`, a case named by `inputs` (made when a message names it; `show`: as it shows them), in a context of its own: what it returns, and the first rejection it left unhandled
 * while it ran. A case of a run that has failed is not run: it throws the run's failure.
 */
export async function runAsCase<T>(inputs: () => readonly unknown[], show: (inputs: readonly unknown[]) => string, body: () => Promise<T>): Promise<{ readonly value: T; readonly left?: { readonly reason: unknown } }> {
  const store = context.getStore();
  const run = store instanceof CaseRejections ? store.run : store;
  if (run?.failure) throw run.failure;
  const c = new CaseRejections(run, inputs, show);
  try {
    const value = await context.run(c, body);
    return c.left === undefined ? { value } : { value, left: c.left };
  } finally {
    c.ended = true;
  }
}

safeInstanceof(UnhandledRejectionError);
safeInstanceof(LateRejectionError);
safeInstanceof(UnattributedRejectionError);
