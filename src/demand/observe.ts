/**
 * Observation: `entangle` instruments a value so that forcing it records what was forced, and
 * `observe` runs a function on instrumented inputs, evaluates its result in a context, and returns
 * the frozen demands on the result and on each input (paper, section 3). The built-in contexts
 * record the demand they exert as they force the result (see `record.ts`); any other context
 * forces an instrumented copy of it.
 *
 * Instrumentation is lazy: a lazy field's wrapper instruments the value inside only when it is
 * forced, so observing costs a constant factor over running the function.
 * @module
 */
import { Lazy, lazyWith } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { demandHolder, unforced, type Demand, type Forced } from './demand.ts';
import { child, CONS_CTOR, dynamic, FN_CTOR, type Path, type Shape } from './shape.ts';
import { ALL, CALLED, checkPrimitive, demandOf, EVALUATED, record, WHNF, type Guide } from './record.ts';

/** An evaluation context: forces some part of a value, for its effect of recording a demand. */
export type Context = (value: unknown) => void;

/**
 * @internal How a built-in context records the demand it exerts: it forces `value` as the context
 * does, checks it against `shape` (naming paths from `path`), and sets field `at` of `into` to the
 * demand.
 */
export type Recorder = (value: unknown, shape: Shape<unknown>, path: Path, into: Forced, at: number) => void;

/** Where a built-in context keeps its {@link Recorder}. */
const RECORDER = Symbol('strictcheck.recorder');

/**
 * @internal A context that tells observation how to record the demand it exerts while it forces
 * the result, without an instrumented copy of the result. `run` is what calling the context does
 * (by default, recording into a demand no one reads).
 */
export function recordingContext(recorder: Recorder, run?: Context): Context {
  const context = run ?? ((value: unknown) => recorder(value, dynamic, 'value', demandHolder(), 0));
  return Object.assign(context, { [RECORDER]: recorder });
}

/** @internal The recorder that walks `record` under `guide`. */
export function guided(guide: Guide, fit = false): Recorder {
  return (value, shape, path, into, at) => record(value, shape, path, guide, into, at, fit);
}

/** An original lazy field, with the shape and path at which its value will be instrumented. */
type Site = { readonly original: Lazy<unknown>; readonly shape: Shape<unknown>; readonly path: Path };

/**
 * The instrumented copy of a lazy field: a plain thunk (no subclass, on the hottest allocation of
 * observation) that forces the original and instruments the layer found. The common case, a
 * dynamic shape without a path for messages, needs no object but the thunk.
 */
function entangled(original: Lazy<unknown>, shape: Shape<unknown>, path: Path): Lazy<unknown> {
  return shape === dynamic && path === null ? lazyWith(instrumentDynamic, original) : lazyWith(instrumentSite, { original, shape, path });
}

const instrumentDynamic = (original: Lazy<unknown>) => instrument(original.force(), dynamic, null);
const instrumentSite = ({ original, shape, path }: Site) => instrument(original.force(), shape.kind === 'lazy' ? shape.inner() : dynamic, path);

/**
 * An instrumented copy of `value`: every lazy field becomes an {@link entangled} thunk, so what
 * has been forced can be read off the copy afterwards ({@link freeze}). Strict fields are copied
 * now, lazy ones when forced.
 */
function instrument(value: unknown, shape: Shape<unknown>, path: Path): unknown {
  if (value instanceof Lazy) {
    if (shape.kind !== 'lazy' && shape.kind !== 'dynamic') shape.project(value, path); // throws the mismatch
    return entangled(value, shape, path);
  }
  if (shape.kind === 'lazy') shape.project(value, path); // throws the mismatch
  // Primitives are immutable: the copy is the value itself.
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    checkPrimitive(value, shape, path);
    return value;
  }
  // List cells are the common case: copy them without the generic layer.
  if (value instanceof Cons) {
    if (shape.kind === 'dynamic') return new Cons<unknown>(entangled(value.head, dynamic, null), entangled(value.tail, dynamic, null) as never);
    const cons = shape.kind === 'data' ? shape.alternatives()[1] : undefined;
    const [headShape, tailShape] = (cons?.ctor === CONS_CTOR ? cons.shapes : shape.project(value, path).shapes) as [Shape<unknown>, Shape<unknown>];
    return new Cons<unknown>(entangled(value.head, headShape, child(path, 'head')), entangled(value.tail, tailShape, child(path, 'tail')) as never);
  }
  const layer = shape.project(value, path);
  if (layer.ctor === FN_CTOR) return instrumentFunction(layer.value as (...args: unknown[]) => unknown);
  const n = layer.fields.length;
  if (n === 0) return value;
  const copies: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = layer.shapes[i]!;
    // Only declared shapes can mismatch, so only they pay for the path of their messages.
    copies[i] = instrument(layer.fields[i], s, s.kind === 'dynamic' ? null : child(path, layer.ctor.keys[i]!));
  }
  return layer.ctor.build(copies, layer.value);
}

/** A function is demanded when it is called: the wrapper records its first call. */
function instrumentFunction(f: (...args: unknown[]) => unknown): unknown {
  const wrapper = function (this: unknown, ...args: unknown[]) {
    (wrapper as unknown as Record<symbol, boolean>)[CALLED] = true;
    return f.apply(this, args);
  };
  (wrapper as unknown as Record<symbol, boolean>)[CALLED] = false;
  return wrapper;
}

/** The demand recorded in an instrumented copy so far: evaluated thunks and called functions. */
function freeze(copy: unknown): Demand {
  return demandOf(copy, dynamic, null, EVALUATED);
}

/**
 * Pairs an instrumented copy of `value` with a live view of its demand: forcing parts of the
 * copy records them (paper, `entangleShape`). Unlike {@link observe}, the result depends on
 * evaluation order; call `demand()` to read what has been forced so far.
 *
 * @example
 * ```ts
 * const [copy, demand] = entangle(fromArray([1, 2, 3]));
 * copy.force();
 * prettyDemand(demand()); // '_ : _'
 * ```
 */
export function entangle<T>(value: T, shape: Shape<T> = dynamic as Shape<T>): [T, () => Demand] {
  const copy = instrument(value, shape as Shape<unknown>, 'value') as T;
  return [copy, () => freeze(copy)];
}

/** What {@link observe} returns: the demand on the result and on each input. */
export interface Observation {
  readonly result: Demand;
  readonly inputs: readonly Demand[];
}

/** An observation that may have ended in an error thrown by the function or the context. */
export interface DetailedObservation extends Observation {
  /** Present when evaluation threw: what was thrown. The demands are those recorded until then. */
  readonly error?: { readonly thrown: unknown };
}

/** Shapes for an observation; any left out are read from the values at run time. */
export interface ObserveShapes {
  // `any`: a shape's phantom type is invariant, so `Shape<List<number>>` is not a `Shape<unknown>`.
  readonly inputs?: readonly Shape<any>[];
  readonly result?: Shape<any>;
  /** Names of the inputs, for messages (default `argument 1`, …). */
  readonly names?: readonly string[];
}

/**
 * Observes `fn` on `inputs` in `context`, never throwing: a thrown error is returned with the
 * demands recorded up to it. The building block of {@link observe} and of the checker.
 */
export function observeDetailed(context: Context, fn: (...args: any[]) => unknown, inputs: readonly unknown[], shapes: ObserveShapes = {}): DetailedObservation {
  const copies: unknown[] = [];
  const recorder = (context as { [RECORDER]?: Recorder })[RECORDER];
  const resultHolder = demandHolder();
  let resultCopy: unknown = unforcedCopy;
  let error: { thrown: unknown } | undefined;
  try {
    inputs.forEach((x, i) => copies.push(instrument(x, shapes.inputs?.[i] ?? dynamic, shapes.names?.[i] ?? `argument ${i + 1}`)));
    const result = fn(...copies);
    if (recorder) {
      recorder(result, shapes.result ?? dynamic, 'result', resultHolder, 0);
    } else {
      resultCopy = instrument(result, shapes.result ?? dynamic, 'result');
      context(resultCopy);
    }
  } catch (thrown) {
    error = { thrown };
  }
  // Freezing now, after the context has run, is what makes observe referentially transparent.
  const resultDemand = resultCopy === unforcedCopy ? resultHolder.field(0) : freeze(resultCopy);
  const obs = { result: resultDemand, inputs: copies.map(freeze) };
  while (obs.inputs.length < inputs.length) obs.inputs.push(unforced);
  return error ? { ...obs, error } : obs;
}
const unforcedCopy = Symbol('no result');

/**
 * Observes the strictness of `fn`: runs it on instrumented `inputs`, evaluates its result in
 * `context`, and returns the demand on the result and on each input. Referentially transparent:
 * the demands are frozen when it returns, and two observations never share state. An error
 * thrown by `fn` or the context is rethrown.
 *
 * @example
 * ```ts
 * const { result, inputs } = observe(normalize, zipWith((a: number, b: number) => a * b), fromArray([10, 20]), fromArray([30, 40]));
 * // result: 300 : 800 : [], inputs: [10 : 20 : [], 30 : 40 : _]
 * ```
 */
export function observe<A extends unknown[]>(context: Context, fn: (...args: A) => unknown, ...inputs: A): Observation {
  const obs = observeDetailed(context, fn, inputs);
  if (obs.error) throw obs.error.thrown;
  return { result: obs.result, inputs: obs.inputs };
}

/** Observes a function of one argument: `[demand on result, demand on input]` (paper, `observe1`). */
export function observe1<A>(context: Context, fn: (a: A) => unknown, input: A): [Demand, Demand] {
  const { result, inputs } = observe(context, fn, input);
  return [result, inputs[0]!];
}

/** The context that forces the outermost layer of a value (Haskell's `seq`, weak head normal form). */
export const whnf: Context = recordingContext(guided(WHNF), (value) => {
  if (value instanceof Lazy) value.force();
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
    const layer = dynamic.project(v, null);
    for (let i = layer.fields.length - 1; i >= 0; i--) stack.push(layer.fields[i]);
  }
});

/**
 * The context that forces a value exactly as far as `demand` says (paper, `toContext`).
 * Throws if the value's constructors differ from the demand's.
 */
export function toContext(demand: Demand): Context {
  return recordingContext(guided(demand));
}
