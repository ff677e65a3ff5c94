/**
 * The spec language's combinators for iterable arguments (sync or async, re-iterable or one-shot):
 * the patterns of the specs of iterator operators, where a source's demand is what was pulled from
 * it and how its iteration ended (see `iter/demand.ts`). Each reads the source's own elements
 * (`iter/read.ts`), so that the predicted pulls answer what the source answers, whatever the
 * result's elements are (`map`'s are not its source's).
 * - `pulledAsResult`: as many pulls as the result's (or as `pulls` or `yields` say), closed when
 *   the result is closed or has reached its `limit`, run to its end when the result ended
 *   (`take`, `drop`, `map`, `filter`, `flatMap`, `chunk`); a source that never ends is
 *   predicted pulled as far as it is read (see `pulled`);
 * - `pulledInLockstep`: one pull per pull of the result, in turn with the iterable arguments
 *   before it; the first to end closes the others (`zip`);
 * - `pulledUntil`: up to the first element that matches, then closed (a search: `find`, `some`);
 * - `exhausted`: to its end whenever the result is demanded (`toArray`, `reduce`);
 * - `neverForced` (of the list combinators) is "never pulled": its demand, `_`, is untouched.
 * @module
 */
import { types } from 'node:util';
import { isThunk, Lazy, now } from '../lazy/lazy.ts';
import { closedAfter, endOf, leftBeforeFirstPull, passedOnAsIs, pullCount, pulledHeads, pulledThen, thrownInto, untouched, type AnyIterDemand, type IterDemand } from '../iter/demand.ts';
import { sourcePrefix, type SourcePrefix } from '../iter/read.ts';
import { sourceOf } from '../iter/source.ts';
import type { ArgumentDemand } from './combinators.ts';
import { describeValue } from '../demand/shape-errors.ts';
import { BOOLEAN_OPTION, checkDeclared, FUNCTION_OPTION } from '../demand/options.ts';

/** The type of the elements of an iterable or iterator type `X`, sync or async. */
export type IterElementOf<X> = X extends Iterable<infer T> ? T : X extends AsyncIterable<infer T> ? T : X extends Iterator<infer T> ? T : X extends AsyncIterator<infer T> ? T : never;

/** Whether a source whose result was closed before its first pull is closed too. */
export interface ClosingOptions {
  /**
   * Whether a result closed before its first pull closes the source, as a TC39 iterator helper
   * does (it holds its source's iterator from the start). Default false: the source is
   * untouched, as by a generator, which has not started and runs nothing when closed.
   */
  readonly closesUnstarted?: boolean | undefined;
}

/** Options of {@link IterSpecLanguage.pulledAsResult}: how many pulls of the source the result's pulls take, and where the function stops by itself. */
export interface PulledAsResultOptions<A extends readonly unknown[], T> extends ClosingOptions {
  /** How many pulls of the source the result's first `k` pulls take (`chunk`: `size · k`; `drop`: `n + k`). Default `k`. */
  readonly pulls?: ((k: number, ...inputs: [...A]) => number) | undefined;
  /**
   * How many elements of the result each element of the source gives (`filter`: 1 or 0;
   * `flatMap`: the length of its expansion): the result's first `k` pulls take the fewest
   * elements of the source that give `k`. In place of `pulls`.
   */
  readonly yields?: ((element: T, ...inputs: [...A]) => number) | undefined;
  /**
   * The most elements the result has (`take`'s `n`): a result that ended (`[]`) after that many
   * pulls closes the source there, where a result that ended sooner ran the source to its end.
   */
  readonly limit?: ((...inputs: [...A]) => number) | undefined;
  /**
   * Whether the function delegates to the source with `yield*` (`function* (xs) { yield* xs }`),
   * which forwards its consumer's `throw()` to it: a result closed by `throw()` throws into the
   * source where its iterators have a `throw` method, and closes it with `return()` where they
   * have none (the protocol's rule, see {@link thrownInto}). Default false: closed with `return()`,
   * as by a `for…of`, which a `throw()` at its `yield` leaves.
   *
   * @example
   * ```ts
   * function* passOn(xs: Iterable<number>) {
   *   yield* xs;
   * }
   * const passOnSpec = specOf([iterable(number)], iterable(number), ({ pulledAsResult }) => [pulledAsResult({ delegates: true })]);
   * checkSpec(passOnSpec, passOn).passed; // true; without delegates, false: source 0 : throw(), spec 0 : return()
   * ```
   */
  readonly delegates?: boolean | undefined;
}

/** The combinators for iterable arguments, bound to the argument types `A` and result type `R` of a spec (see `specOf`). */
export interface IterSpecLanguage<A extends readonly unknown[], R> {
  /**
   * Pulls the source as many times as the result was pulled (or as `pulls` or `yields` say),
   * answering the source's own elements; then leaves it open if the result is, closes it if the
   * result was closed (`return()` or `throw()`; with `delegates`, a `throw()` is thrown into it)
   * or ended at its `limit`, and runs it to its end
   * (`[]`, or `⊥` where it throws) if the result ended otherwise. Not pulled at all when the
   * result is not. An element with lazy parts, or an iterable, is demanded as the result's
   * element at its place (without `pulls` or `yields`, the one it passed on), else whole.
   *
   * @example
   * ```ts
   * // take over iterables: as far as the result, closed once n are taken
   * const takeIter = specOf([number, iterable(number)], iterable(number), ({ whenDemanded, pulledAsResult }) => [whenDemanded, pulledAsResult({ limit: (n) => n })]);
   * // chunks of 2: two pulls per chunk pulled
   * const chunkIter = specOf([iterable(number)], iterable(dynamic), ({ pulledAsResult }) => [pulledAsResult({ pulls: (k) => 2 * k })]);
   * ```
   */
  pulledAsResult<X extends AnyIterDemand<unknown>>(options?: PulledAsResultOptions<A, IterElementOf<X>>): ArgumentDemand<A, R, X>;
  /**
   * Pulled once per pull of the result, in turn with the iterable arguments before it (`zip`):
   * when the result ended (`[]` or `⊥`) at its pull `k + 1`, the first of them whose pull `k + 1`
   * ended is run to its end there, those before it are closed after `k + 1` pulls and those after
   * it after `k`; a result closed closes each after `k` pulls.
   *
   * @example
   * ```ts
   * const zipIter = specOf([iterable(number), iterable(number)], iterable(tuple(number, number)), ({ pulledInLockstep }) => [pulledInLockstep(), pulledInLockstep()]);
   * ```
   */
  pulledInLockstep<X extends AnyIterDemand<unknown>>(options?: ClosingOptions): ArgumentDemand<A, R, X>;
  /**
   * Whenever the result is demanded, the source is pulled up to its first element that `match`es,
   * then closed; to its end if none does (a search: `find`, `some`, `includes`).
   *
   * @example
   * ```ts
   * const firstEvenIter = specOf([iterable(number)], number, ({ pulledUntil }) => [pulledUntil((x) => x % 2 === 0)]);
   * ```
   */
  pulledUntil<X extends AnyIterDemand<unknown>>(match: (element: IterElementOf<X>, ...inputs: [...A]) => boolean): ArgumentDemand<A, R, X>;
  /**
   * Whenever the result is demanded, the source is pulled to its end (`Array.from`, a sum).
   *
   * @example
   * ```ts
   * const sumIter = specOf([iterable(number)], number, ({ exhausted }) => [exhausted]);
   * ```
   */
  exhausted<X extends AnyIterDemand<unknown>>(resultDemand: R, argument: X, inputs: A): X;
  /**
   * The demand `rule` predicts when `condition` holds of the result demand and the inputs; none
   * otherwise (`_`: not forced, not pulled). For any argument, iterable or not.
   *
   * @example
   * ```ts
   * // a generator take that returns before it opens its source when n <= 0
   * const takeGen = specOf([number, iterable(number)], iterable(number), ({ whenDemanded, onlyWhen, pulledAsResult }) => [
   *   whenDemanded,
   *   onlyWhen((_d, n) => n > 0, pulledAsResult({ limit: (n) => n })),
   * ]);
   * ```
   */
  onlyWhen<X>(condition: (resultDemand: R, ...inputs: [...A]) => boolean, rule: ArgumentDemand<A, R, X>): ArgumentDemand<A, R, X>;
}

// One implementation for every A and R: the types only check the functions given.
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Inputs = Any[];
type Source = AnyIterDemand<unknown>;

/**
 * The demand of `m` pulls of source `xs` (its first `m` elements), then left `open` or `closed`
 * (if it can be); when it ends within them, or for `m` infinite, its elements to its end and
 * that end (`[]` or `⊥`). Of a source that never ends, "to its end" is as far as `sourcePrefix`
 * reads it (10,000 pulls), left open: more than a function that returned pulled, unless it pulled
 * more (the force budget allows more), so one that stopped fails as over a finite source
 * (exactly, or `noLazier`; it passes `noStricter`), and its shrunk counterexample is one. The
 * prediction counts against the spec's force budget: one under about 10,000 makes it a SpecError.
 * Each element is demanded whole (it is delivered with its pull), but one with lazy parts among
 * the first `asResult.length`, demanded as `asResult` says at its place: as far as the consumer
 * forced or pulled the result's element there (read ahead as it was read). `read`: the source's
 * first `m` elements where the caller has read them already.
 */
function pulled(xs: Source, m: number, then: 'open' | 'closed' | 'thrownInto', asResult: readonly Lazy<unknown>[] = [], read: SourcePrefix<unknown> = sourcePrefix(xs, m)): IterDemand<unknown> {
  const heads = read.values.map((x, i) => (i < asResult.length && hasLazyParts(x) ? passedOnAsIs(asResult[i]!) : now(x)));
  if (read.values.length < m) return pulledThen(heads, read.then === 'more' ? 'open' : read.then);
  const prefix = pulledThen(heads, 'open');
  return then === 'open' ? prefix : then === 'closed' ? closedAfter(prefix, xs) : thrownInto(prefix, xs);
}

/** Most levels {@link hasLazyParts} looks into an element. */
const LAZY_PARTS_DEPTH = 8;

/** Whether element `x` is or holds a `Lazy` or an iterable (in its own data properties, a few levels down): only then is what the consumer forced or pulled of it less than it whole. */
function hasLazyParts(x: unknown, depth = 0): boolean {
  if (x instanceof Lazy) return true;
  if (typeof x !== 'object' || x === null || types.isProxy(x)) return false;
  if (isSource(x)) return true;
  if (depth >= LAZY_PARTS_DEPTH) return false;
  return Object.values(Object.getOwnPropertyDescriptors(x)).some((p) => 'value' in p && hasLazyParts(p.value, depth + 1));
}

/** The fewest elements of `xs` whose yields add up to `k`: Infinity when all of them do not. */
function fewest(xs: Source, k: number, yields: (x: unknown) => number): number {
  if (k <= 0) return 0;
  let counted = 0;
  let total = 0;
  const enough = (values: readonly unknown[]) => {
    for (; counted < values.length; counted++) total += yields(values[counted]);
    return total >= k;
  };
  const { values } = sourcePrefix(xs, Infinity, enough);
  // A source that ends after the last element read is not asked again: that element counts too.
  return enough(values) ? values.length : Infinity;
}

/**
 * What a result closed (by `return()` or `throw()`) after `k` pulls puts on a source pulled `m`
 * times, closed as `how` says (thrown into by a `yield*`: see `delegates`): before its first pull
 * the function had not started, and a source it had not pulled yet it had not opened yet (a
 * generator that yields before its `for…of`).
 */
function whenClosed(xs: Source, k: number, m: number, options: ClosingOptions, how: 'closed' | 'thrownInto' = 'closed', asResult?: readonly Lazy<unknown>[]): IterDemand<unknown> {
  if (k > 0 && m > 0) return pulled(xs, m, how, asResult);
  return options.closesUnstarted ? pulled(xs, 0, 'closed') : untouched;
}

/**
 * Demand `d` on source `xs` of a function that, with `closesUnstarted`, took its iterator when
 * called (it can close it before its first pull): where `d` pulls nothing, the iterator taken
 * and left (`taken`, on a re-iterable source; a one-shot iterator is its own).
 */
function takenWhenCalled(xs: Source, options: ClosingOptions, d: IterDemand<unknown>): IterDemand<unknown> {
  return options.closesUnstarted && d === untouched ? leftBeforeFirstPull(xs) : d;
}

const closedByConsumer = (end: string) => end === 'return' || end === 'throw';

/** Whether an input is an iterable source (not a lazy value, a function or a primitive). */
function isSource(x: unknown): boolean {
  if (sourceOf(x) !== undefined) return true;
  return typeof x === 'object' && x !== null && !(x instanceof Lazy) && (Symbol.iterator in x || Symbol.asyncIterator in x);
}

/** Refuses, for combinator `name`, a result demand `d` that is not an iteration's (the result is not an iterable), if `d` is read. */
function iterResult(name: string, d: unknown): void {
  if (d instanceof Lazy) return;
  throw new TypeError(`${name} reads the result's demand as an iterable's, but the result is not an iterable (its demand: ${describeValue(d)}): it applies where the result's shape is iterable(…), iterator(…) or their async kinds`);
}

/** Refuses, for combinator `name`, an argument `xs` (named `arg`) that is not an iterable source. */
function iterArgument(name: string, xs: unknown, arg: string): void {
  if (isSource(xs)) return;
  throw new TypeError(`${name} predicts the demand on an iterable argument, but ${arg} is not an iterable (got ${describeValue(xs)}): give that argument another combinator`);
}

/** {@link IterSpecLanguage.pulledAsResult} but for the iterator taken when called (see {@link takenWhenCalled}). */
function pulledAsResult(options: PulledAsResultOptions<Inputs, unknown>, d: Source, xs: Source, inputs: Inputs, arg: string): IterDemand<unknown> {
  iterArgument('pulledAsResult', xs, arg);
  if (isThunk(d)) return untouched;
  iterResult('pulledAsResult', d);
  const k = pullCount(d);
  const end = endOf(d);
  const { pulls: count, yields, limit } = options;
  const need = () => (count ? count(k, ...inputs) : yields ? fewest(xs, k, (x) => yields(x, ...inputs)) : k);
  // Pull i of the result answered pull i of the source: the element passed on, as far as the consumer forced it.
  const heads = count || yields ? [] : pulledHeads(d);
  if (closedByConsumer(end)) return whenClosed(xs, k, need(), options, options.delegates && end === 'throw' ? 'thrownInto' : 'closed', heads);
  if (end === 'open') return pulled(xs, need(), 'open', heads);
  // A result that ended at its limit closed the source; in ⊥ where the source's return threw.
  if ((end === 'done' || end === 'threw') && limit && k >= limit(...inputs)) return pulled(xs, need(), 'closed', heads);
  return pulled(xs, Infinity, 'open', heads);
}

/** {@link IterSpecLanguage.pulledInLockstep} but for the iterator taken when called (see {@link takenWhenCalled}). */
function pulledInLockstep(options: ClosingOptions, d: Source, xs: Source, inputs: Inputs, index: number, arg: string): IterDemand<unknown> {
  iterArgument('pulledInLockstep', xs, arg);
  if (isThunk(d)) return untouched;
  iterResult('pulledInLockstep', d);
  const k = pullCount(d);
  const end = endOf(d);
  // Its reads are bounded: never one to an end that may not come.
  if (closedByConsumer(end)) return whenClosed(xs, k, k, options);
  if (end === 'open') return pulled(xs, k, 'open');
  // The result ended at its pull k + 1: an iterable argument before this one ended there, or this one, or one after it.
  if (inputs.slice(0, index).some((ys) => isSource(ys) && sourcePrefix(ys, k + 1).values.length <= k)) return pulled(xs, k, 'closed');
  return pulled(xs, k + 1, 'closed');
}

/** The options of {@link IterSpecLanguage.pulledInLockstep}, and those of {@link IterSpecLanguage.pulledAsResult}: checked when the spec is made, as a misspelt one changed what the spec says without a word. */
const CLOSING_OPTIONS = { closesUnstarted: BOOLEAN_OPTION };
const PULLED_AS_RESULT_OPTIONS = { pulls: FUNCTION_OPTION, yields: FUNCTION_OPTION, limit: FUNCTION_OPTION, delegates: BOOLEAN_OPTION, ...CLOSING_OPTIONS };

/** @internal The implementations of {@link IterSpecLanguage}. */
export const iterLanguage: IterSpecLanguage<Inputs, Any> = {
  pulledAsResult: (options: PulledAsResultOptions<Inputs, unknown> = {}) => {
    checkDeclared(options, PULLED_AS_RESULT_OPTIONS, 'pulledAsResult');
    return ((d: Source, xs: Source, inputs: Inputs, _index: number, arg: string) => takenWhenCalled(xs, options, pulledAsResult(options, d, xs, inputs, arg))) as Any;
  },
  pulledInLockstep: (options: ClosingOptions = {}) => {
    checkDeclared(options, CLOSING_OPTIONS, 'pulledInLockstep');
    return ((d: Source, xs: Source, inputs: Inputs, index: number, arg: string) => takenWhenCalled(xs, options, pulledInLockstep(options, d, xs, inputs, index, arg))) as Any;
  },
  pulledUntil: (match: (x: Any, ...inputs: Inputs) => boolean) =>
    ((d: Source, xs: Source, inputs: Inputs, _index: number, arg: string) => {
      iterArgument('pulledUntil', xs, arg);
      if (isThunk(d)) return untouched;
      // The reading stops at the first match, and `match` runs once an element: on each as it is read,
      // but for the last one of a source read to its end, which the reading asks nothing of.
      let hit = false;
      const read = sourcePrefix(xs, Infinity, (values) => (hit = values.length > 0 && match(values[values.length - 1], ...inputs)));
      const last = read.values.length - 1;
      if (!hit && read.then !== 'more' && last >= 0) hit = match(read.values[last], ...inputs);
      // Read once: its first last + 1 elements where it matched, else all it reads.
      return hit ? pulled(xs, last + 1, 'closed', [], read) : pulled(xs, Infinity, 'open', [], read);
    }) as Any,
  exhausted: ((d: unknown, xs: Source, _inputs: Inputs, _index: number, arg: string) => {
    iterArgument('exhausted', xs, arg);
    return isThunk(d) ? untouched : pulled(xs, Infinity, 'open');
  }) as Any,
  onlyWhen: (condition, rule) => (d, x, inputs, index, arg) => (condition(d, ...inputs) ? rule(d, x, inputs, index, arg) : (untouched as Any)),
};
