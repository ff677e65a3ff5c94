/**
 * Observation: `entangle` instruments a value so that forcing it records what was forced, and
 * `observe` runs a function on instrumented inputs (see `instrument.ts`), evaluates its result in
 * a context, and returns the demands on the result and on each input (paper, section 3). The
 * built-in contexts record the demand they exert as they force the result (see `record.ts`); any
 * other context forces an instrumented copy of it.
 *
 * Instrumentation is lazy and records as it is forced, so observing costs a constant factor over
 * running the function.
 * @module
 */
import { types } from 'node:util';
import { ForceBudgetExceeded, Lazy, lazyView, type withForceBudget } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { bottom, checkDemand, demandHolder, setField, type Demand, type Forced } from './demand.ts';
import { dynamic, lenient } from './dynamic.ts';
import type { Path } from './path.ts';
import type { Shape } from './shape-types.ts';
import { Handoff, record } from './record.ts';
import { snapshot } from './compact-demand.ts';
import { ALL, WHNF, type Guide } from './guide.ts';
import { instrument, Recording } from './instrument.ts';
import { forceHint } from './force-hint.ts';
import { mutationHint } from './mutation-hint.ts';
import { cloneHint } from './clone-hint.ts';
import { revokedInput } from './revoked-proxy.ts';
import { AsyncWork, withAsyncWork } from './async-work.ts';
import { InputFailures, withInputFailures } from './input-failures.ts';
import { lastAsked } from './last-asked.ts';
import { ShapeMismatchError } from './shape-errors.ts';
import { unlessNeverSettling, type NeverSettlesError } from './never-settles.ts';

/** An evaluation context: forces some part of a value, for its effect of recording a demand. */
export type Context = (value: unknown) => void;

/**
 * @internal How a built-in context records the demand it exerts: it forces the value `result`
 * holds as the context does, checks it against `shape` (naming paths from `path`), and sets field
 * `at` of `into` to the demand.
 */
export type Recorder = (result: Handoff, shape: Shape<unknown>, path: Path, into: Forced, at: number) => void;

/** Where a built-in context keeps its {@link Recorder}. */
const RECORDER = Symbol('strictcheck.recorder');

/**
 * @internal A context that tells observation how to record the demand it exerts while it forces
 * the result, without an instrumented copy of the result. `run` is what calling the context does
 * (by default, recording into a demand no one reads).
 */
export function recordingContext(recorder: Recorder, run?: Context): Context {
  // Called on a value directly, it records nothing anyone reads: what it cannot take apart is forced whole.
  const context = run ?? ((value: unknown) => recorder(new Handoff(value), lenient, 'value', demandHolder(), 0));
  (context as { [RECORDER]?: Recorder })[RECORDER] = recorder;
  return context;
}

/** @internal The recorder that walks `record` under `guide`. */
export function guided(guide: Guide, fit = false): Recorder {
  return (value, shape, path, into, at) => record(value, shape, path, guide, into, at, fit);
}

/**
 * Pairs an instrumented copy of `value` with a live view of its demand: forcing parts of the
 * copy records them (paper, `entangleShape`). Unlike {@link observe}, the result depends on
 * evaluation order; call `demand()` to read what has been forced so far (each reading is a
 * demand of its own, which later forcing does not change).
 *
 * @example
 * ```ts
 * const [copy, demand] = entangle(fromArray([1, 2, 3]));
 * copy.force();
 * prettyDemand(demand()); // '_ : _'
 * ```
 */
export function entangle<T>(value: T, shape: Shape<T> = dynamic as Shape<T>): [T, () => Demand] {
  return entangleAt(value, shape, 'value');
}

/** @internal {@link entangle}, naming the value `root` where it does not fit its shape (a generated function's argument). */
export function entangleAt<T>(value: T, shape: Shape<T>, root: string): [T, () => Demand] {
  const rec = new Recording(true);
  const holder = rec.root(root);
  const copy = instrument(value, shape as Shape<unknown>, root, holder, 0, rec, false) as T;
  return [copy, () => snapshot(holder.field(0))];
}

/** What {@link observe} returns: the demand on the result and on each input. */
export interface Observation {
  /** The demand the context put on the function's result. */
  readonly result: Demand;
  /** The demand the function put on each input, in order. */
  readonly inputs: readonly Demand[];
}

/** @internal The name of argument `i` in messages: its name in `names`, or `args[i]`, by its index from 0 as coverage and its option key it. */
export function argumentName(names: readonly string[] | undefined, i: number): string {
  return names?.[i] ?? (DEFAULT_NAMES[i] ??= `args[${i}]`);
}
/** The names of arguments without one, made once (an observation names every argument, a check observes thousands of times). */
const DEFAULT_NAMES: string[] = [];

/** The names of `n` arguments named `given` (see {@link argumentName}), those last asked for kept: a check names the same on every trial. */
const argumentNames = lastAsked((given: readonly string[] | undefined, n: number): readonly string[] => Array.from({ length: n }, (_, i) => argumentName(given, i)));

/**
 * @internal Throws a TypeError naming `fn` as `who` if it is an async or a generator function,
 * whose result is a Promise or an iterator, that observation cannot follow, or if it `returned` a
 * Promise or thenable (a plain function may); says what can be given. A generator function is
 * observed where its result's shape is an iterable's (`iterableResult`), which is consumed through
 * the iteration protocol.
 */
export function refuseAsyncOrGenerator(fn: unknown, who: string, iterableResult = false, returned: 'Promise' | 'thenable' | undefined = undefined): void {
  if (typeof fn !== 'function') return;
  const generator = types.isGeneratorFunction(fn);
  const asyncFunction = types.isAsyncFunction(fn);
  const async = asyncFunction || returned !== undefined;
  if (!generator && !async) return;
  if (iterableResult && !async) return;
  const kind = asyncFunction ? (generator ? 'an async generator function' : 'an async function') : generator ? 'a generator function' : `a function that returned a ${returned}`;
  const why = generator
    ? 'its body runs only as the iterator it returns is iterated'
    : 'its result is a Promise, and what it evaluates after an await, it evaluates after the observation has ended';
  throw new TypeError(
    `${who} is ${kind}, which ${async ? 'a synchronous check' : 'strictcheck'} cannot observe: ${why}. Give a plain function (or arrow function) that returns its result, with a Lazy where the result is lazy (a lazy list rather than a generator: see lazyCons and the List functions)${generator && !async ? ', or declare its result iterable(elem) (docs/iterators.md)' : ''}${async ? ', or check it with checkSpecAsync or assertSpecAsync (checkSpecExhaustiveAsync or assertSpecExhaustiveAsync in the exhaustive mode; observeDetailedAsync to observe it), which await it, with asyncIterable(elem) for an async generator\'s result (docs/iterators.md)' : ''}`,
  );
}

/**
 * Whether `value` is a Promise or another thenable: only asked of a result that its context could
 * not consume, to say why. A Proxy, or a `then` getter that throws, is taken for neither.
 */
function thenableKind(value: unknown): 'Promise' | 'thenable' | undefined {
  if (types.isPromise(value)) return 'Promise';
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || types.isProxy(value)) return undefined;
  try {
    return typeof (value as { then?: unknown }).then === 'function' ? 'thenable' : undefined;
  } catch {
    return undefined;
  }
}

/** {@link forceHint}, {@link mutationHint} or {@link cloneHint}, which must not cost the report of what was thrown: `undefined` if it throws. */
function hintFor(thrown: unknown, fn: (...args: any[]) => unknown, inputs: readonly unknown[], shapes: ObserveShapes): string | undefined {
  try {
    return forceHint(thrown, fn, inputs, shapes.inputs ?? [], shapes.names) ?? mutationHint(thrown) ?? cloneHint(thrown);
  } catch {
    return undefined;
  }
}

/** An observation that may have ended in an error thrown by the function or the context. */
export interface DetailedObservation extends Observation {
  /** Present when evaluation threw: what was thrown. The demands are those recorded until then. */
  readonly error?: {
    /** The thrown value, whatever it is (wrapped so that a thrown `undefined` still shows). */
    readonly thrown: unknown;
    /** What the shapes say of a `force` called on what is not a Lazy, if they say something (see `force-hint.ts`), or why a change to an input or its structured clone was refused (`mutation-hint.ts`, `clone-hint.ts`). */
    readonly hint?: string;
    /** Present where a force budget ran out while the context forced the function's result, after the function returned. */
    readonly forcingResult?: true;
  };
}

/** Shapes for an observation; any left out are read from the values at run time. */
export interface ObserveShapes {
  // `any`: a shape's phantom type is invariant, so `Shape<List<number>>` is not a `Shape<unknown>`.
  /** The shapes of the inputs, in order (each checked where it is forced). */
  readonly inputs?: readonly Shape<any>[] | undefined;
  /** The shape of the result. */
  readonly result?: Shape<any> | undefined;
  /** Names of the inputs, for messages (default `args[0]`, …). */
  readonly names?: readonly string[] | undefined;
}

/**
 * Observes `fn` on `inputs` in `context`, never throwing: a thrown error is returned with the
 * demands recorded up to it. The building block of {@link observe} and of the checker. (An async
 * or generator function, whose result observation cannot follow, is refused with a TypeError.)
 *
 * @example
 * ```ts
 * const boom = (xs: List.List<number>) => List.map((x: number) => { if (x === 2) throw new Error('two'); return x; }, xs);
 * const o = observeDetailed(normalize, boom, [fromArray([1, 2, 3])], { inputs: [list(number)], names: ['xs'] });
 * prettyDemand(o.result);    // '1 : _ : _': recorded until the throw
 * prettyDemand(o.inputs[0]!); // '1 : 2 : _'
 * o.error?.thrown;           // Error: two
 * ```
 */
export function observeDetailed(context: Context, fn: (...args: any[]) => unknown, inputs: readonly unknown[], shapes: ObserveShapes = {}): DetailedObservation {
  return new ObservationRun(context, fn, inputs, shapes).observe();
}

/**
 * {@link observeDetailed} of a function over async iterables or returning a Promise: a Promise
 * result is awaited before the context consumes it, and the observation ends when the context's
 * consumption of async iterables has, and the function's pending steps have run. Pulls of async
 * iterables count against `budget` (the force budget cannot follow an `await`). Where the event
 * loop empties while it awaits the function (nothing left can settle it), the observation ends
 * with a {@link NeverSettlesError} thrown.
 *
 * @example
 * ```ts
 * async function* firstOf(xs: AsyncIterable<number>) { for await (const x of xs) { yield x; return; } }
 * const o = await observeDetailedAsync(normalize, firstOf, [new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: true, delays: [0] })], { inputs: [asyncIterable(number)], result: asyncIterable(number) });
 * prettyDemand(o.inputs[0]!); // '1 : return()'
 * ```
 */
export async function observeDetailedAsync(context: Context, fn: (...args: any[]) => unknown, inputs: readonly unknown[], shapes: ObserveShapes = {}, budget = Infinity): Promise<DetailedObservation> {
  const run = new ObservationRun(context, fn, inputs, shapes);
  const work = new AsyncWork(budget, run.failures);
  // Each wait ends where the event loop empties first: what it waited on never settles.
  try {
    const result = await unlessNeverSettling(withAsyncWork(work, () => run.call()));
    withAsyncWork(work, () => run.consume(result));
    await unlessNeverSettling(work.settle());
  } catch (thrown) {
    run.failed(thrown);
    // The pulls the function left pending settle within the observation too, so that a rejection it left unhandled is told during its case.
    await unlessNeverSettling(work.settle()).catch(() => {});
  }
  return run.end();
}

/** @internal One observation: its recordings, the function's call, the context's consumption of the result, and the error if one was thrown. */
export class ObservationRun {
  private readonly recorder: Recorder | undefined;
  /** The failures the inputs raise (a generated source's): passed on, the result is ⊥ there, not a throw. */
  readonly failures = new InputFailures();
  private readonly rec = new Recording(true, this.failures);
  // The result's copy, made only for a context that records no demand itself, goes to it: a recording of its own, whose paths start at `result`.
  private readonly resultRec: Recording | undefined;
  private readonly names: readonly string[];
  private readonly holders: Forced[];
  private readonly resultHolder: Forced;
  private error: NonNullable<DetailedObservation['error']> | undefined;
  /** Whether the context has the result: what is forced from then on is forced for it. */
  private consuming = false;

  constructor(
    private readonly context: Context,
    private readonly fn: (...args: any[]) => unknown,
    private readonly inputs: readonly unknown[],
    private readonly shapes: ObserveShapes,
  ) {
    this.recorder = (context as { [RECORDER]?: Recorder })[RECORDER];
    this.names = argumentNames(shapes.names, inputs.length);
    this.holders = new Array(inputs.length);
    for (let i = 0; i < inputs.length; i++) this.holders[i] = this.rec.root(this.names[i]!);
    this.resultRec = this.recorder === undefined ? new Recording(false, this.failures) : undefined;
    this.resultHolder = this.resultRec?.root('result') ?? demandHolder();
  }

  /** Calls the function on instrumented copies of the inputs. */
  call(): unknown {
    const { inputs, shapes, names, holders, rec } = this;
    // The copies are not kept here, and the arguments are views: a function that walks past the cells of one lets them go.
    const copies = new Array(inputs.length);
    for (let i = 0; i < inputs.length; i++) copies[i] = instrument(inputs[i], shapes.inputs?.[i] ?? dynamic, names[i]!, holders[i]!, 0, rec, false, lazyView);
    return this.fn(...copies);
  }

  /** The observation, once {@link observe} has made it. */
  observed: DetailedObservation | undefined = undefined;

  /** Observes synchronously, never throwing: see {@link observeDetailed}. */
  observe(): DetailedObservation {
    try {
      this.runSync();
    } catch (thrown) {
      // The result of an async or generator function, or a Promise, does not fit: the reason is the function's kind.
      refuseAsyncOrGenerator(this.fn, 'the function observed', this.shapes.result?.protocol !== undefined, this.returned);
      this.failed(thrown);
    }
    return (this.observed = this.end());
  }

  /** Calls the function and has the context consume its result, with the inputs' failures known to the walks. */
  runSync(): void {
    withInputFailures(this.failures, this.callAndConsume, this);
  }

  /** Set where the function returned a Promise or thenable that did not fit the result's shape: what to say of it (see {@link observe}). */
  private returned: 'Promise' | 'thenable' | undefined = undefined;

  private callAndConsume(this: ObservationRun): void {
    const value = this.call();
    try {
      this.consume(value);
    } catch (err) {
      if (err instanceof ShapeMismatchError) this.returned = thenableKind(value);
      throw err;
    }
  }

  /** Has the context consume the function's result. */
  consume(value: unknown): void {
    this.consuming = true;
    const result = new Handoff(value);
    const shape = this.shapes.result ?? dynamic;
    if (this.recorder) this.recorder(result, shape, 'result', this.resultHolder, 0);
    else this.context(instrument(result.take(), shape, 'result', this.resultHolder, 0, this.resultRec!, false));
  }

  /**
   * Records what the function or the context threw. An input's failure passed on is no throw of
   * the function: the result is ⊥ where it surfaced (recorded there by the context that met it),
   * or whole where the function threw it before returning.
   */
  failed(thrown: unknown): void {
    if (this.failures.has(thrown)) {
      if (!this.resultHolder.field(0).forced) setField(this.resultHolder, 0, bottom);
      return;
    }
    const { fn, inputs, shapes, names } = this;
    // A budget that ran out as the context forced the result is not plainly the function's doing (see the report's failureWhat).
    if (this.consuming && thrown instanceof ForceBudgetExceeded) return void (this.error = { thrown, forcingResult: true });
    const hint = hintFor(thrown, fn, inputs, shapes);
    // A revoked Proxy in an input throws at any walk's first look: a mismatch of the input, not the function's error.
    this.error = hint === undefined ? { thrown: revokedInput(thrown, inputs, names) ?? thrown } : { thrown, hint };
  }

  /** Ends the observation: what is forced later is not recorded. */
  end(): DetailedObservation {
    // Closing the recording now, after the context has run, is what makes observe referentially
    // transparent: what is forced later is not recorded.
    this.rec.open = false;
    if (this.resultRec) this.resultRec.open = false;
    if (this.rec.broken) throw this.rec.broken.err;
    // A change to an input is the function's error, though it caught it or its code is sloppy, or made it with a built-in method called on a Set or a Map.
    this.rec.seeBorrowedChanges();
    if (this.rec.changed) this.error = { thrown: this.rec.changed.err };
    const { holders } = this;
    const inputs: Demand[] = new Array(holders.length);
    for (let i = 0; i < holders.length; i++) inputs[i] = holders[i]!.field(0);
    const obs = { result: this.resultHolder.field(0), inputs };
    return this.error ? { ...obs, error: this.error } : obs;
  }
}

/**
 * Observes the strictness of `fn`: runs it on instrumented `inputs`, evaluates its result in
 * `context`, and returns the demand on the result and on each input. Referentially transparent:
 * the demands are frozen when it returns, and two observations never share state. An error
 * thrown by `fn` or the context is rethrown (the TypeError of a `force` called on what is not a
 * Lazy with a hint added to its message, if the inputs say why: an argument given an array; a
 * change to an input, or a DataCloneError of an input's copy given to `structuredClone`, so too). A
 * part of an input that `fn` forced and that threw is `⊥` in the demand on that input, whether or
 * not `fn` caught the error.
 *
 * `fn` gets copies: equal to its inputs, not identical. A function that compares the cells it
 * forces with `===` sees a fresh copy each time it reaches a cell again (forcing an argument
 * twice, or going round a cyclic list, whose copy is never cyclic); such a walk may not end under
 * observation. Run it inside {@link withForceBudget} to have it stopped with an error.
 *
 * @example
 * ```ts
 * const times = (xs: List.List<number>, ys: List.List<number>) => List.zipWith((a: number, b: number) => a * b, xs, ys);
 * const { result, inputs } = observe(normalize, times, fromArray([10, 20]), fromArray([30, 40]));
 * // result: 300 : 800 : [], inputs: [10 : 20 : [], 30 : 40 : _]
 * ```
 */
export function observe<A extends unknown[]>(context: Context, fn: (...args: A) => unknown, ...inputs: A): Observation {
  const obs = observeDetailed(context, fn, inputs);
  // Defined, not assigned: a DOMException's message is a getter of its prototype, with no setter.
  if (obs.error?.hint !== undefined) Object.defineProperty(obs.error.thrown, 'message', { value: `${(obs.error.thrown as Error).message}\n${obs.error.hint}`, writable: true, configurable: true });
  if (obs.error) throw obs.error.thrown;
  return { result: obs.result, inputs: obs.inputs };
}

/**
 * Observes a function of one argument: `[demand on result, demand on input]` (paper, `observe1`).
 *
 * @example
 * ```ts
 * const [result, input] = observe1(whnf, (xs: List.List<number>) => List.drop(1, xs), fromArray([1, 2, 3]));
 * prettyDemand(result); // '_ : _'
 * prettyDemand(input);  // '_ : _ : _': drop 1 forced two cells to reach the result's first
 * ```
 */
export function observe1<A>(context: Context, fn: (a: A) => unknown, input: A): [Demand, Demand] {
  const { result, inputs } = observe(context, fn, input);
  return [result, inputs[0]!];
}

/** The context that forces the outermost layer of a value (Haskell's `seq`, weak head normal form). */
export const whnf: Context = recordingContext(guided(WHNF), (value) => {
  // Through every Lazy around the layer, as the recorder does (a Lazy may hold a Lazy).
  for (let v = value; v instanceof Lazy; ) v = v.force();
});

/** The context that forces a value completely (every lazy field, without recursion); functions are not called. */
export const normalize: Context = recordingContext(guided(ALL), (value) => {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    let v = stack.pop();
    while (v instanceof Lazy) v = v.force();
    if (v instanceof Cons) {
      stack.push(v.tail, v.head);
      continue;
    }
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) continue;
    const layer = lenient.project(v, null);
    for (let i = layer.fields.length - 1; i >= 0; i--) stack.push(layer.fields[i]);
  }
});

/**
 * The context that forces a value exactly as far as `demand` says (paper, `toContext`).
 * Throws if the value's constructors differ from the demand's.
 *
 * @example
 * ```ts
 * const firstTwoCells = toContext(toDemand(cons(thunk, cons(thunk, thunk))));
 * const o = observe(firstTwoCells, (xs: List.List<number>) => List.map((x: number) => x + 1, xs), fromArray([1, 2, 3]));
 * prettyDemand(o.inputs[0]!); // '_ : _ : _'
 * ```
 */
export function toContext(demand: Demand): Context {
  checkDemand(demand, 'toContext', 'demand');
  return recordingContext(guided(demand));
}
