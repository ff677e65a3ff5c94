/**
 * Demands on iterables, in the list notation: an iteration is a lazy list whose cells are the
 * `next()` calls answered with a value, and whose end says how the iteration stopped: `_` (left
 * open: not pulled again), `[]` (a `next()` answered done), `return()` or `throw()` (closed by
 * the consumer), or `⊥` (a `next()` threw). Several iterations of one re-iterable source are an
 * `Iterations` node with one field per iteration. Specs read and write them in value form: a lazy
 * list whose end is one of the ends here (each an empty list to the `List` functions).
 * @module
 */
import { isThunk, Lazy, now, peek, thunk } from '../lazy/lazy.ts';
import { Cons, Nil, NIL, type List } from '../lazy/cell.ts';
import { fromLazyArray } from '../lazy/list.ts';
import type { Ctor, Shape } from '../demand/shape-types.ts';
import { perShape, someShapeWithin } from '../demand/shape-walk.ts';
import { lastAsked } from '../demand/last-asked.ts';
import { growableNode, pushField, type Demand, type Forced } from '../demand/demand.ts';
import { AsyncSource, Source, sourceOf } from './source.ts';
import { isBottom } from '../demand/value-form.ts';
import { isDataObject } from '../demand/dynamic.ts';
import { OTHER_END, type OtherEnd } from '../demand/lazy-positions.ts';

/** How an iteration ended: left open, answered done, closed by `return()` or `throw()`, or a pull threw. */
export type IterationEnd = 'open' | 'done' | 'return' | 'throw' | 'threw';

/** The end of an iteration other than `[]` and `_`, in value form: an empty list to the `List` functions. */
export class IterEnd extends Nil {
  /** @internal Its constructor, which the dynamic shape reads it as (not `[]`). */
  readonly [OTHER_END]: OtherEnd;
  constructor(
    /** Which end. */
    readonly end: 'return' | 'throw' | 'threw',
    /** Its constructor in demands. */
    readonly ctor: Ctor,
  ) {
    super();
    this[OTHER_END] = { ctor };
  }
}

const RETURN_CTOR: Ctor = { name: 'return()', keys: [], style: 'atom', closes: true, build: () => RETURNED };
const THROW_CTOR: Ctor = { name: 'throw()', keys: [], style: 'atom', closes: true, build: () => THROWN, plainer: RETURN_CTOR };
const THREW_CTOR: Ctor = { name: '⊥', keys: [], style: 'atom', build: () => THREW };

/** @internal `taken`: an iterator of a re-iterable source taken, then no `next()`, `return()` or `throw()`. */
export const TAKEN_CTOR: Ctor = { name: 'taken', keys: [], style: 'atom', taken: true, build: () => TAKEN };

/** @internal `[]`: a pull answered done (alike, by name and style, to a list's end). */
export const DONE_CTOR: Ctor = { name: '[]', keys: [], style: 'nil', build: () => NIL };

/** The end `return()`: the consumer closed the iteration. */
export const RETURNED: IterEnd = new IterEnd('return', RETURN_CTOR);
/** The end `throw()`: the consumer threw into the iteration. */
export const THROWN: IterEnd = new IterEnd('throw', THROW_CTOR);
/** The end `⊥`: a `next()` threw. */
export const THREW: IterEnd = new IterEnd('threw', THREW_CTOR);

/** @internal The constructors of the ends, by end. */
export const END_CTORS = { return: RETURN_CTOR, throw: THROW_CTOR, threw: THREW_CTOR } as const;

/** The iterations of one re-iterable source, in value form, each a lazy list (see {@link iterations}). */
export class Iterations {
  constructor(
    /** The demand on each iteration, in value form. */
    readonly iterations: readonly Lazy<unknown>[],
  ) {}
}

/** The keys of the fields of `Iterations`, their indices, as far as the most iterations named so far. */
const iterationKeys: number[] = [];

/** The one constructor of `Iterations`, of any number of fields (see {@link iterationsCtor}). */
const ITERATIONS_CTOR: Ctor = {
  name: 'Iterations',
  keys: iterationKeys,
  iterations: iterationsCtor,
  style: 'data',
  build: (f) => (f.length === 1 && f[0] !== thunk ? (f[0] as Lazy<unknown>).force() : new Iterations(f as Lazy<unknown>[])),
};

/**
 * @internal The constructor of the demand on `n` iterations of a re-iterable source: one too, so
 * that the order knows a source that can be iterated anew (see {@link Ctor.iterations}). Printed
 * and in value form, one begun is its iteration alone. One serves every `n` (its keys name the
 * fields of the longest): a constructor per `n`, each with its `n` keys, made recording `n`
 * iterations quadratic.
 */
export function iterationsCtor(n: number): Ctor {
  for (let i = iterationKeys.length; i < n; i++) iterationKeys.push(i);
  return ITERATIONS_CTOR;
}

/** @internal An `Iterations` node of no iteration yet, to which {@link addIteration} adds each as it begins. */
export function iterationsNode(): Forced {
  return growableNode(ITERATIONS_CTOR, true);
}

/** @internal Adds iteration `d` to `node`, made by {@link iterationsNode}; returns its index. */
export function addIteration(node: Forced, d: Demand): number {
  const i = pushField(node, d);
  iterationsCtor(i + 1);
  return i;
}

/**
 * An iteration of an async iterable during which `pending` (more than one) `next()` calls were
 * pending at once, in value form as a spec writes it (see {@link readAhead}): the consumer read
 * ahead. Printed `Ahead 2 (1 : 2 : [])`. A spec receives one as its iteration alone (see {@link aheadOf}).
 */
export class Ahead {
  constructor(
    /** The most `next()` calls pending at once. */
    readonly pending: number,
    /** The demand on the iteration, in value form. */
    readonly iteration: Lazy<unknown>,
  ) {}
}

/**
 * @internal The constructor of the demand on an iteration read ahead: its fields, the most pulls
 * pending at once and the iteration. In value form it is an {@link Ahead} (`fromDemand` gives
 * what `toDemand` reads back), but as a spec receives it, it is the iteration itself, the reading
 * ahead kept beside it (see {@link aheadOf}): a spec written for sync iterables that passes a
 * result's demand on to a source predicts its pulls made one at a time, as an async generator
 * makes them; one passing the reading ahead on says so with {@link readAhead}.
 */
export const AHEAD_CTOR: Ctor = {
  name: 'Ahead',
  keys: ['pending', 'iteration'],
  iterationField: 1,
  style: 'data',
  build: (f) => new Ahead(f[0] as number, f[1] as Lazy<unknown>),
  received: (f) => readingAhead(f[0] as number, f[1] as Lazy<unknown>),
};

/** The first cells (or ends) of iterations given to specs in value form that were read ahead, to the most pulls pending at once. */
const readAheads = new WeakMap<object, number>();

/**
 * @internal Element `h` of an iteration's demand in value form, as the demand that a function
 * passing the element on as it is exerts on it: each iteration in it that was read ahead (which a
 * spec receives as its iteration alone, see {@link AHEAD_CTOR}) is read ahead again, at any depth,
 * as the consumer's reading ahead reached the element's own source. `h` itself where none was.
 */
export function passedOnAsIs(h: Lazy<unknown>): Lazy<unknown> {
  if (isThunk(h) || isBottom(h)) return h;
  const v = h.force();
  if (v instanceof Lazy) {
    // An element at a lazy position, whose shape is one too (an iterable's): the Lazy of the Lazy of its iterations.
    const inner = passedOnAsIs(v);
    return inner === v ? h : now(inner);
  }
  if (v instanceof Iterations) {
    const each = v.iterations.map(passedOnAsIs);
    return each.some((x, i) => x !== v.iterations[i]) ? now(new Iterations(each)) : h;
  }
  if (typeof v !== 'object' || v === null) return h;
  const pending = readAheads.get(v);
  if (pending === undefined && !(v instanceof Cons)) {
    // Data (a tuple, a record, a declared type's value) may hold iterables in its fields.
    const inside = passedOnInside(v);
    return inside === v ? h : now(inside);
  }
  const cells = v instanceof Cons ? cellsPassedOnAsIs(h) : h;
  return pending === undefined ? cells : now(new Ahead(pending, cells));
}

/**
 * Field `x` of data in value form as {@link passedOnAsIs} gives it: at a lazy position (its
 * `Lazy`) as an element is; strict data (a tuple, a record, a declared type's value, a set, a
 * map), its fields so in turn; anything else, and data whose every field is its own, itself.
 */
function passedOnInside(x: unknown): unknown {
  if (x instanceof Lazy) return passedOnAsIs(x);
  if (typeof x !== 'object' || x === null || x instanceof Nil || !isDataObject(x)) return x;
  if (Array.isArray(x) || x instanceof Set || x instanceof Map) {
    const entries: unknown[] = [...x]; // a map's as [key, value] pairs
    const each = entries.map(passedOnInside);
    if (each.every((y, i) => y === entries[i])) return x;
    return Array.isArray(x) ? each : x instanceof Set ? new Set(each) : new Map(each as [unknown, unknown][]);
  }
  const fields = Object.getOwnPropertyDescriptors(x) as Record<PropertyKey, PropertyDescriptor>;
  let changed = false;
  for (const key of Reflect.ownKeys(fields)) {
    const field = fields[key]!;
    if (!('value' in field)) continue;
    const y = passedOnInside(field.value);
    changed ||= y !== field.value;
    field.value = y;
  }
  return changed ? Object.create(Object.getPrototypeOf(x) as object | null, fields) : x;
}

/** The cells of iteration `xs` in value form, their elements as {@link passedOnAsIs} gives them: `xs` itself where each is its own. */
function cellsPassedOnAsIs(xs: Lazy<unknown>): Lazy<unknown> {
  const heads: Lazy<unknown>[] = [];
  let changed = false;
  let rest = xs as List<unknown>;
  for (let c: unknown; rest !== thunk && !isBottom(rest) && (c = rest.force()) instanceof Cons; rest = c.tail) {
    const head = passedOnAsIs(c.head);
    changed ||= head !== c.head;
    heads.push(head);
  }
  return changed ? fromLazyArray(heads, rest) : xs;
}

/** The value form of iteration `iteration` read `pending` calls ahead: its first cell or its end (made anew: `[]` and the ends are shared), marked so. */
function readingAhead(pending: number, iteration: Lazy<unknown>): unknown {
  if (iteration === thunk) return new Ahead(pending, iteration);
  const v = iteration.force();
  const own = v instanceof IterEnd ? new IterEnd(v.end, v.ctor) : v instanceof Nil ? new Nil() : v;
  readAheads.set(own as object, pending);
  return own;
}

/**
 * A demand on an iterable or an iterator in value form, typed to stand for either where a spec
 * gives or receives one: at run time a lazy list (see {@link pullsOf}) or `thunk`.
 */
export type IterDemand<T> = Iterable<T> & Iterator<T> & AsyncIterable<T> & AsyncIterator<T>;

/** What a spec holds as the demand on an iterable, sync or async, in value form. */
export type AnyIterDemand<T> = Iterable<T> | Iterator<T> | AsyncIterable<T> | AsyncIterator<T>;

/** The value form of a demand on an iterable, seen as the lazy list it is. */
function asList<T>(d: AnyIterDemand<T>): List<T> {
  return d as unknown as List<T>;
}

/**
 * The demand of one iteration in value form: `elements` pulled, then `end`; for specs and tests.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(pulls([1, 2], 'return'), iterable(number))); // '1 : 2 : return()'
 * ```
 */
export function pulls<T>(elements: readonly T[], end: IterationEnd): IterDemand<T> {
  return pulledThen(elements.map((x) => now(x)), end);
}

/** @internal The demand of one iteration whose pulls answered `heads` (each element's demand in value form), then `end`. */
export function pulledThen<T>(heads: readonly Lazy<T>[], end: IterationEnd): IterDemand<T> {
  return fromLazyArray(heads, end === 'open' ? thunk : now(end === 'done' ? NIL : END_VALUES[end])) as unknown as IterDemand<T>;
}
/**
 * The value form of {@link TAKEN_CTOR}: no pull, so an empty list to the `List` functions. What
 * it means, only a declared shape says (a re-iterable source's iteration, before its first pull):
 * the dynamic shape refuses it, never reading it as `[]`.
 */
class Taken extends Nil {
  readonly [OTHER_END]: OtherEnd = {
    ctor: TAKEN_CTOR,
    refused: 'taken (an iterator taken, then nothing), which means something only at the start of an iteration of a re-iterable source, as its shape says: give the shape, toDemand(d, iterable(…)) (or asyncIterable(…))',
  };
}
/** @internal The value form of `taken`. */
export const TAKEN: Nil = new Taken();

/**
 * The demand "its iterator taken, then nothing" (`taken`), for specs: an iteration of a
 * re-iterable source begun (`[Symbol.iterator]()`) and left open before its first pull, as a
 * helper that takes its source's iterator when called leaves it. Unlike {@link untouched} (never
 * begun, nothing to close), it is not below `return()`. It is an iteration's whole demand: after a
 * pull (`1 : taken`), or on a one-shot iterator (`iterator`, `asyncIterator`: given open, taking
 * it is no event), it means nothing, and reading it there is refused.
 */
export const taken: IterDemand<never> = now(TAKEN) as unknown as IterDemand<never>;

const END_VALUES = { return: RETURNED, throw: THROWN, threw: THREW } as const;
const BOTTOM_ITERATION = now(THREW);

/**
 * The demand of several iterations of one re-iterable source, each given by {@link pulls} (or
 * {@link untouched}), in value form: those after the last begun are not begun, as are those it
 * does not list, and none begun is {@link untouched}.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(iterations(pulls([1], 'open'), pulls([1, 2], 'done')), iterable(number))); // 'Iterations (1 : _) (1 : 2 : [])'
 * ```
 */
export function iterations<T>(...each: readonly AnyIterDemand<T>[]): IterDemand<T> {
  const begun = each.slice(0, beganUpTo(each as unknown as readonly Lazy<unknown>[]));
  return (begun.length === 0 ? untouched : now(new Iterations(begun as unknown as Lazy<unknown>[]))) as unknown as IterDemand<T>;
}

/** @internal How many of `each`, iterations in value form, go up to the last begun (not `thunk`). */
export function beganUpTo(each: readonly Lazy<unknown>[]): number {
  let n = each.length;
  while (n > 0 && each[n - 1] === thunk) n--;
  return n;
}

/** The demand "not iterated at all" (`_`), for specs. */
export const untouched: IterDemand<never> = thunk as unknown as IterDemand<never>;

/**
 * The lazy list of an iteration's demand in value form (its first iteration, for several): the
 * pulls, then its end (`thunk`, `NIL`, {@link RETURNED}, {@link THROWN} or {@link THREW}), for
 * specs that use the `List` functions on it. A result that is `⊥` (see `isBottom`: a function
 * that passed on its source's failure before returning its iterable) reads as an iteration whose
 * first pull threw, which prints alike: `⊥`.
 */
export function pullsOf<T>(d: AnyIterDemand<T>): List<T> {
  return firstIteration(d).pulls;
}

/**
 * The most `next()` calls pending at once in an iteration (the first, for several) of an async
 * iterable, in a demand in value form: 1 unless the consumer read ahead (see {@link Ahead}).
 *
 * @example
 * ```ts
 * aheadOf(readAhead(2, pulls([1, 2], 'done'))); // 2
 * ```
 */
export function aheadOf(d: AnyIterDemand<unknown>): number {
  return firstIteration(d).ahead;
}

/** The first iteration of demand `d` in value form, through `Iterations` and `Ahead`: its pulls (see {@link pullsOf}), and how far it was read ahead (the outermost `Ahead`'s, else 1). */
function firstIteration<T>(d: AnyIterDemand<T>): { pulls: List<T>; ahead: number } {
  let xs = asList(d);
  let ahead = 0;
  for (;;) {
    if (xs === thunk) break;
    if (isBottom(xs)) return { pulls: BOTTOM_ITERATION as List<T>, ahead: ahead || 1 };
    const v = xs.force() as unknown;
    if (v instanceof Iterations) xs = (v.iterations[0] as List<T>) ?? thunk;
    else if (v instanceof Ahead) {
      ahead ||= v.pending;
      xs = v.iteration as List<T>;
    } else {
      ahead ||= readAheads.get(v as object) ?? 0;
      break;
    }
  }
  return { pulls: xs, ahead: ahead || 1 };
}

/**
 * The demand of iteration `d` read `pending` calls ahead (as {@link Ahead}): itself for 1. An
 * iteration is read ahead once, as far as the most calls pending at once: `d` read ahead already
 * is read ahead as far as the larger (never an `Ahead` inside an `Ahead`, which none has).
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(readAhead(2, pulls([1], 'open')), asyncIterable(number))); // 'Ahead 2 (1 : _)'
 * ```
 */
export function readAhead<D extends AnyIterDemand<unknown>>(pending: number, d: D): D {
  return (pending <= 1 ? d : now(new Ahead(Math.max(pending, aheadOf(d)), pullsOf(d) as Lazy<unknown>))) as D;
}

/** The cells of an iteration's demand in value form: how many pulls answered a value, and its end. */
function walk(d: AnyIterDemand<unknown>): { count: number; last: List<unknown> } {
  let count = 0;
  let xs = pullsOf(d);
  for (;;) {
    if (xs === thunk) return { count, last: xs };
    const c = xs.force();
    if (!(c instanceof Cons)) return { count, last: xs };
    count++;
    xs = c.tail;
  }
}

/**
 * The elements that the pulls of an iteration (the first, for several) answered, in a demand in
 * value form: for specs whose sources' elements come from their result's (`zip`'s pairs).
 *
 * @example
 * ```ts
 * pulledElements(pulls([1, 2], 'return')); // [1, 2]
 * ```
 */
export function pulledElements<T>(d: AnyIterDemand<T>): T[] {
  return pulledHeads(d).map((x) => x.force());
}

/**
 * How many pulls of an iteration (the first, for several) answered a value, in a demand in value form.
 *
 * @example
 * ```ts
 * pullCount(pulls([1, 2], 'return')); // 2
 * ```
 */
export function pullCount(d: AnyIterDemand<unknown>): number {
  return walk(d).count;
}

/**
 * How an iteration (the first, for several) ended, in a demand in value form.
 *
 * @example
 * ```ts
 * endOf(pulls([1, 2], 'return')); // 'return'
 * endOf(untouched);               // 'open'
 * ```
 */
export function endOf(d: AnyIterDemand<unknown>): IterationEnd {
  const { last } = walk(d);
  if (last === thunk) return 'open';
  const c = last.force();
  return c instanceof IterEnd ? c.end : c === TAKEN ? 'open' : 'done';
}

/**
 * The same pulls as iteration `d` (the first, for several), then closed by `return()`: what a
 * function that stops there should do to its source, `xs`. A source whose iterators have no
 * `return` cannot be closed: given `xs`, the iteration is left open there instead (after no
 * pull, {@link taken} on a re-iterable source, {@link untouched} on a one-shot iterator).
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(closedAfter(pulls([1, 2], 'done')), iterable(number))); // '1 : 2 : return()'
 * ```
 */
export function closedAfter<T>(d: AnyIterDemand<T>, xs?: AnyIterDemand<T>): IterDemand<T> {
  const heads = pulledHeads(d);
  if (xs === undefined || hasIteratorMethod(xs, 'return')) return pulledThen(heads, 'return');
  // Begun to be closed, and not closable: left open, after no pull too.
  return heads.length === 0 ? leftBeforeFirstPull(xs) : pulledThen(heads, 'open');
}

/**
 * The same pulls as iteration `d` (the first, for several), then `throw()`: what a function that
 * delegates to source `xs` with `yield*` does to it when its own consumer throws into it. A source
 * whose iterators have no `throw` is closed instead as {@link closedAfter} closes it (`return()`,
 * or left open without `return`), then the `yield*` throws a TypeError: the protocol's rule.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(thrownInto(pulls([1], 'open'), new Source({ elements: [1, 2], infinite: false, hasReturn: true })), iterable(number))); // '1 : throw()'
 * prettyDemand(toDemand(thrownInto(pulls([1], 'open'), [1, 2]), iterable(number))); // '1 : _': an array's iterator has neither throw nor return
 * ```
 */
export function thrownInto<T>(d: AnyIterDemand<T>, xs: AnyIterDemand<T>): IterDemand<T> {
  return hasIteratorMethod(xs, 'throw') ? pulledThen(pulledHeads(d), 'throw') : closedAfter(d, xs);
}

/**
 * @internal The demand on source `xs` whose iterator a function took and left before its first
 * pull: {@link taken} on a re-iterable source; {@link untouched} on a one-shot iterator, which the
 * function was given open, so that taking it is no event. Which it is, its declared shape says, as
 * it says the observation's (an array's iterator declared `iterable(…)` is re-iterable there); a
 * value given to no spec at a declared shape is one-shot where it has `next`.
 */
export function leftBeforeFirstPull(xs: AnyIterDemand<unknown>): IterDemand<never> {
  const reiterable = declaredReiterable.get(xs) ?? typeof (xs as { next?: unknown }).next !== 'function';
  return reiterable ? taken : untouched;
}

/** @internal Whether the values of iterable shape `shape` are re-iterable sources (their demand `Iterations`, `taken` recorded), not one-shot iterators. */
export function isReiterableShape(shape: Shape<unknown>): boolean {
  return shape.protocol?.oneShot !== true;
}

/**
 * Whether each input given to a spec at an iterable shape was declared re-iterable (see
 * {@link declareIterableInputs}), where {@link leftBeforeFirstPull} would not tell so without it.
 */
const declaredReiterable = new WeakMap<object, boolean>();

/** Whether a value of shape `s` may hold an iterable below its top (in data, or at a lazy position): only then is it walked. */
const holdsIterable = perShape((s) => someShapeWithin(s, (x) => x !== s && x.protocol !== undefined, (x) => x === s || x.protocol === undefined));

/**
 * @internal Notes which of `inputs`, given to a spec at `shapes`, are iterables declared
 * re-iterable, for {@link leftBeforeFirstPull}: at the top, in data (a tuple's or a record's
 * field) and at lazy positions, as far as they are evaluated (nothing is forced).
 */
export function declareIterableInputs(shapes: readonly Shape<unknown>[], inputs: readonly unknown[]): void {
  const found = iterableArguments(shapes, undefined);
  for (let k = 0; k < found.length; k++) {
    const i = found[k]!;
    const shape = shapes[i]!;
    if (shape.protocol !== undefined) declare(inputs[i], shape);
    else declareWithin(inputs[i], shape);
  }
}

/**
 * The indices of the arguments of `shapes` that are or may hold iterables, those of the shapes
 * asked last kept: a spec asks on every trial, where a lookup per argument (held weakly, see
 * {@link holdsIterable}) was 1% of a check of take, whose arguments hold none.
 */
const iterableArguments = lastAsked((shapes: readonly Shape<unknown>[], _: void): readonly number[] => {
  const found: number[] = [];
  for (let i = 0; i < shapes.length; i++) if (shapes[i]!.protocol !== undefined || (shapes[i]!.kind !== 'prim' && holdsIterable(shapes[i]!))) found.push(i);
  return found;
});

/** Notes that `x`, if an object, was given at iterable shape `s`. */
function declare(x: unknown, s: Shape<unknown>): void {
  if (typeof x !== 'object' || x === null) return;
  const reiterable = isReiterableShape(s);
  // A generated source declared re-iterable (a check's every trial) is what leftBeforeFirstPull takes it for without an entry (it has no `next`): an entry per trial cost a tenth of a check over iterables, in the set and in the collections.
  if (reiterable && (x instanceof Source || x instanceof AsyncSource)) declaredReiterable.delete(x);
  else declaredReiterable.set(x, reiterable);
}

/** {@link declare}s the iterables that `value`, of shape `shape`, holds in its data and at its evaluated lazy positions. */
function declareWithin(value: unknown, shape: Shape<unknown>): void {
  const stack: unknown[] = [value, shape];
  const seen = new Set<object>();
  while (stack.length > 0) {
    let s = stack.pop() as Shape<unknown>;
    let x = stack.pop();
    if (s.protocol !== undefined) {
      declare(x, s);
      continue;
    }
    if (!holdsIterable(s)) continue;
    for (; x instanceof Lazy && s.kind === 'lazy' && s.protocol === undefined; s = s.inner()) x = x.isEvaluated ? peek(x) : undefined;
    if (s.protocol !== undefined) {
      stack.push(x, s);
      continue;
    }
    if (typeof x !== 'object' || x === null || x instanceof Lazy || seen.has(x) || s.kind !== 'data') continue;
    seen.add(x);
    try {
      const layer = s.project(x, null);
      layer.fields.forEach((f, k) => stack.push(f, layer.shapes[k]));
    } catch {
      // A value that does not fit its shape: the check reports it where it observes it.
    }
  }
}

/** @internal The demands on the elements that the pulls of an iteration (the first, for several) answered, in value form: its cells' heads. */
export function pulledHeads<T>(d: AnyIterDemand<T>): Lazy<T>[] {
  const heads: Lazy<T>[] = [];
  for (let ys = pullsOf(d); ys !== thunk; ) {
    const c = ys.force();
    if (!(c instanceof Cons)) break;
    heads.push(c.head);
    ys = c.tail;
  }
  return heads;
}

/** What strictcheck saw of the iterators of a source it did not generate, in those it took of it: whether they have `return` and `throw`. */
const iteratorMethods = new WeakMap<object, { readonly return: boolean; readonly throw: boolean }>();

/**
 * @internal Notes that `it`, an iterator of source `xs` (not a generated one) that strictcheck
 * took where the protocol takes one (observing the function, or reading the source for a spec),
 * has or lacks `return` and `throw`: {@link hasIteratorMethod} reads it, taking none of its own.
 */
export function noteIteratorMethods(xs: object, it: object): void {
  const { return: r, throw: t } = it as { return?: unknown; throw?: unknown };
  iteratorMethods.set(xs, { return: typeof r === 'function', throw: typeof t === 'function' });
}

/** The methods that make the iterators of arrays, strings, sets, maps and typed arrays, which have `next` alone. */
const BUILT_IN_ITERATIONS = new Set<unknown>([
  Array.prototype[Symbol.iterator],
  String.prototype[Symbol.iterator],
  Set.prototype[Symbol.iterator],
  Map.prototype[Symbol.iterator],
  (Object.getPrototypeOf(Uint8Array.prototype) as Iterable<unknown>)[Symbol.iterator],
]);

/**
 * Whether the iterators of `xs` have method `name` (`return`, `throw`), found out without
 * running any code of the source (its `[Symbol.iterator]()` an extra time is observable: a count,
 * a log, a one-shot source consumed): a generated source's plan says (its iterators have both or
 * neither); else the iterators strictcheck took of it where the protocol does (see
 * {@link noteIteratorMethods}); else an iterator is its own (a generator object); an array's,
 * a string's, a set's, a map's and a typed array's have neither, a generator function's both.
 * A source none of these tells (no iteration of it begun, by the function or by a spec's
 * reading) is taken to have them, as a generator's iterators have: the function began none,
 * so any demand that begins one differs from its `_` alike.
 */
function hasIteratorMethod(xs: AnyIterDemand<unknown>, name: 'return' | 'throw'): boolean {
  const source = sourceOf(xs);
  if (source !== undefined) return source.plan.hasReturn;
  const seen = iteratorMethods.get(xs);
  if (seen !== undefined) return seen[name];
  const x = xs as unknown as Record<PropertyKey, unknown>;
  if (typeof x.next === 'function') return typeof x[name] === 'function';
  const make = Symbol.iterator in x ? x[Symbol.iterator] : x[Symbol.asyncIterator];
  return !BUILT_IN_ITERATIONS.has(make);
}
