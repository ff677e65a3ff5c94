/**
 * Shapes of iterables: `iterable(elem)`, a re-iterable source (each `[Symbol.iterator]()` call is
 * a new iteration, as an array's), and `iterator(elem)`, a one-shot iterator or generator object.
 * Each is a lazy position whose value form is the demand of its iterations (see `demand.ts`), and
 * whose values take part in observation, contexts, generation and shrinking through the shape's
 * protocol.
 * @module
 */
import { Lazy, now } from '../lazy/lazy.ts';
import { Cons, Nil } from '../lazy/cell.ts';
import { CONS_CTOR, lazyOf } from '../demand/lazy-positions.ts';
import { showPath } from '../demand/path.ts';
import { number } from '../demand/primitives.ts';
import { describeValue, ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Alternative, Layer, Protocol, Shape } from '../demand/shape-types.ts';
import type { Recording } from '../demand/instrument.ts';
import type { Guide } from '../demand/guide.ts';
import { Ahead, AHEAD_CTOR, beganUpTo, DONE_CTOR, END_CTORS, IterEnd, Iterations, iterationsCtor, TAKEN, TAKEN_CTOR } from './demand.ts';
import { consumeAsyncIterable, consumeAsyncRandomly, instrumentAsyncIterable, isAsyncIterable } from './async-observe.ts';
import { consumeIterable, consumeRandomly, instrumentIterable, isIterable } from './observe.ts';
import { describeSource, sourceOf } from './source.ts';
import { generateAsyncSource, generateSource, shrinkSource } from './generate.ts';
import { OWN_SERIES } from '../engine/series.ts';
import { checkKnownOptions, showOption } from '../demand/options.ts';
import { iterableSeries } from './series.ts';


/**
 * The shape of the demand on one iteration in value form: a list cell, or one of the ends
 * (`[]`, `return()`, `throw()`, `⊥`), read ahead or not; before its first pull, on a re-iterable
 * source (`oneShot` false), `taken` too. Taking an iterator begins its iteration, so `taken`
 * means nothing after a pull, nor on a one-shot iterator, given to the function open; and reading
 * ahead is recorded of a whole iteration, once, so `Ahead` means nothing after a pull nor inside
 * another `Ahead`: there each is refused, naming what to write (`reiterable`: the maker of the re-iterable shape of this kind).
 */
function iterationCell(elem: Shape<unknown>, name: string, oneShot: boolean, reiterable: string): Shape<unknown> {
  const consShapes: Shape<unknown>[] = [];
  const aheadShapes: Shape<unknown>[] = [];
  // Ahead too, so that the iteration it holds converts at its own shape (its elements' lazy layers kept).
  const alternatives: Alternative[] = [
    { ctor: DONE_CTOR, shapes: [] },
    { ctor: CONS_CTOR, shapes: consShapes },
    ...Object.values(END_CTORS).map((ctor) => ({ ctor, shapes: [] })),
    { ctor: AHEAD_CTOR, shapes: aheadShapes },
  ];
  const expected = `the demand on an iteration of ${name} (a lazy list of its pulls, ending in thunk, NIL, RETURNED, THROWN or THREW)`;
  const afterPull = 'taken after a pull, where it means nothing: taken (an iterator taken, then nothing) is the demand on an iteration before its first pull; end pulls left open with untouched (thunk, as pulls([1], \'open\') does: 1 : _)';
  const onOneShot = `taken on a one-shot iterator, where it means nothing: ${name} is given to the function open, so taking it is no event; write untouched (_) for an iterator without any next(), return() or throw(), or declare a re-iterable source with ${reiterable}(…)`;
  const aheadAfterPull = "Ahead after a pull, where it means nothing: reading ahead (more than one next() pending at once) is recorded of a whole iteration; write readAhead(n, …) around the whole iteration (readAhead(2, pulls([1, 2], 'open')): Ahead 2 (1 : 2 : _))";
  const aheadInAhead = 'Ahead inside Ahead, which no iteration has: an iteration is read ahead once, as far as the most next() calls pending at once; write the larger alone (readAhead(3, pulls([1], \'open\')): Ahead 3 (1 : _))';
  /** The shape of an iteration's cell, where `taken` and `Ahead` are refused by `refusals` (or read, without one). */
  const cellShape = (refusals: { readonly taken?: string | undefined; readonly ahead?: string | undefined }): Shape<unknown> => ({
    kind: 'data',
    name,
    alternatives: () => alternatives,
    project(value, path): Layer {
      if (value instanceof Cons) return { ctor: CONS_CTOR, fields: [value.head, value.tail], shapes: consShapes };
      if (value instanceof IterEnd) return { ctor: value.ctor, fields: [], shapes: [] };
      const refusal = value === TAKEN ? refusals.taken : value instanceof Ahead ? refusals.ahead : undefined;
      if (refusal !== undefined) throw new ShapeMismatchError(showPath(path), expected, value, refusal);
      if (value === TAKEN) return { ctor: TAKEN_CTOR, fields: [], shapes: [] };
      if (value instanceof Nil) return { ctor: DONE_CTOR, fields: [], shapes: [] };
      if (value instanceof Ahead) return { ctor: AHEAD_CTOR, fields: [value.pending, value.iteration], shapes: aheadShapes };
      const several = value instanceof Iterations ? `: iterations(…) is the demand on a re-iterable source, and ${name} has one iteration` : '';
      throw new ShapeMismatchError(showPath(path), expected, value, several ? describeValue(value) + several : undefined);
    },
  });
  const taken = oneShot ? onOneShot : undefined;
  const first = cellShape({ taken });
  consShapes.push(lazyOf(elem) as Shape<unknown>, lazyOf(cellShape({ taken: afterPull, ahead: aheadAfterPull })) as Shape<unknown>);
  aheadShapes.push(number as Shape<unknown>, lazyOf(cellShape({ taken, ahead: aheadInAhead })) as Shape<unknown>);
  return first;
}

/**
 * The shape of the demand on a re-iterable source whose iterations are `cell`'s, in value form:
 * `Iterations` of each, or one iteration alone, its `Iterations` of one.
 */
function iterationsCell(cell: Shape<unknown>, name: string): Shape<unknown> {
  const iteration = lazyOf(cell) as Shape<unknown>;
  const alternatives: Alternative[] = [{ ctor: iterationsCtor(1), shapes: [iteration] }];
  return {
    kind: 'data',
    name,
    alternatives: () => alternatives,
    project(value, path): Layer {
      if (!(value instanceof Iterations)) {
        cell.project(value, path); // throws the mismatch
        return { ctor: iterationsCtor(1), fields: [now(value)], shapes: alternatives[0]!.shapes };
      }
      const n = beganUpTo(value.iterations);
      if (n === 0) throw new ShapeMismatchError(showPath(path), `the demand on ${name}`, value, 'Iterations of no iteration begun: write untouched (or iterations(…), which gives it)');
      return { ctor: iterationsCtor(n), fields: value.iterations.slice(0, n), shapes: Array.from({ length: n }, () => iteration) };
    },
  };
}

/** How the values of an iterable shape are observed and generated: sync or async. */
const SYNC = { prefix: '', isIterable, instrument: instrumentIterable, consume: consumeIterable, consumeRandomly, generate: generateSource } as const;
const ASYNC = { prefix: 'Async', isIterable: isAsyncIterable, instrument: instrumentAsyncIterable, consume: consumeAsyncIterable, consumeRandomly: consumeAsyncRandomly, generate: generateAsyncSource } as const;

/**
 * Whether `options` of the constructor named `maker` ask for finite sources only (`finite`,
 * default false: finite and infinite ones; the exhaustive mode's are finite either way); throws on
 * an unknown option or a `finite` that is not a boolean.
 */
function finiteOption(options: { readonly finite?: boolean }, maker: string): boolean {
  if (typeof options !== 'object' || options === null) throw new TypeError(`the options of ${maker}() are an object such as { finite: true }, not ${showOption(options)}`);
  checkKnownOptions(options, ['finite']);
  const { finite = false } = options;
  if (typeof finite !== 'boolean') throw new TypeError(`the option finite of ${maker}() must be true or false, not ${showOption(finite)}`);
  return finite;
}

/** What a message adds of `value` where an iterable of the other kind than `async` says was expected: that it is one, and the shape that takes it. */
function otherKind(value: unknown, async: boolean): string {
  const [kind, shape, other] = async ? ['sync', 'asyncIterable', 'iterable'] : ['async', 'iterable', 'asyncIterable'];
  return (async ? isIterable(value) : isAsyncIterable(value)) ? `: ${kind === 'sync' ? 'a sync' : 'an async'} iterable, which ${shape}(…) does not take: use ${other}(…)` : '';
}

/**
 * An iterable shape: a lazy position over its iterations' demand, with the protocol of `oneShot`
 * iterators or re-iterable sources, sync or `async`, generating `finite` sources only or not.
 */
function iterableShape<T>(elem: Shape<T>, oneShot: boolean, mode: typeof SYNC | typeof ASYNC, finite: boolean): Shape<any> {
  const name = `${finite ? 'Finite' : ''}${mode.prefix}${oneShot ? 'Iterator' : 'Iterable'}<${elem.name}>`;
  const iterationShape = iterationCell(elem as Shape<unknown>, name, oneShot, mode === ASYNC ? 'asyncIterable' : 'iterable');
  const cell = oneShot ? iterationShape : iterationsCell(iterationShape, name);
  const elements = elem as Shape<unknown>;
  let self: Shape<unknown>;
  const expected = `${mode === ASYNC ? 'an async ' : 'an '}${oneShot ? 'iterator' : 'iterable'} of ${elem.name}`;
  const protocol: Protocol = {
    async: mode === ASYNC,
    oneShot,
    instrument: (value, path, into, at, rec) => mode.instrument(value, self, elements, oneShot, path, into, at, rec as Recording),
    consume: (value, path, guide, into, at, fit) => mode.consume(value, self, elements, path, guide as Guide, into, at, fit),
    consumeRandomly: (value, path, consumer, into, at) => mode.consumeRandomly(value, self, elements, path, consumer, into, at),
    generate: (r, size, generate) => {
      const source = mode.generate(elem as Shape<unknown>, r, size, generate, finite);
      return oneShot ? source.iterator() : source;
    },
    shrink: function* (value, shrink) {
      const source = sourceOf(value);
      if (source === undefined) return;
      for (const smaller of shrinkSource(source, elem as Shape<unknown>, shrink)) yield oneShot ? smaller.iterator() : smaller;
    },
  };
  self = {
    kind: 'lazy',
    name,
    inner: () => cell,
    protocol,
    ...{ [OWN_SERIES]: iterableSeries(elements, oneShot, mode === ASYNC) },
    project(value, path): Layer {
      // A lazy position has no layer but an iterable's own value, which a report prints as what it does.
      if (value instanceof Lazy) throw new ShapeMismatchError(showPath(path), expected, value, 'a Lazy (a lazy list is not an iterable: declare it with list(…), or give an iterable)');
      const source = sourceOf(value);
      if (source !== undefined) return atom(describeSource(source, elem as Shape<unknown>), value);
      if (mode.isIterable(value)) return atom(`<${mode.prefix.toLowerCase()}${oneShot ? 'iterator' : 'iterable'}>`, value);
      throw new ShapeMismatchError(showPath(path), `${expected}, or its demand in value form (a lazy list)`, value, describeValue(value) + otherKind(value, mode === ASYNC));
    },
  };
  return self;
}

function atom(name: string, value: unknown): Layer {
  return { ctor: { name, keys: [], style: 'atom', build: () => value }, fields: [], shapes: [] };
}

/**
 * Re-iterable sources of elements of shape `elem` (an array, a `Set`, any object whose every
 * `[Symbol.iterator]()` call starts a new iteration). The demand on one is what was pulled from
 * each iteration and how it ended: `1 : 2 : return()`; a check gives a function generated
 * sources (finite or not, throwing at a pull, without `return`, with a `return` that throws) and
 * consumes an iterable result as random consumers do. With `{ finite: true }` the sources it
 * generates all end (named `FiniteIterable<elem>`): for a function that pulls its source to its
 * end, which an infinite source makes diverge.
 *
 * @example
 * ```ts
 * const o = observeDetailed(normalize, (xs: Iterable<number>) => [...xs].slice(0, 1), [[1, 2]], { inputs: [iterable(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : 2 : []'
 * ```
 *
 * @example
 * ```ts
 * // sum pulls its source to the end (`[]`, or ⊥ where a pull throws): over finite sources only
 * const sum = (xs: Iterable<number>) => { let s = 0; for (const x of xs) s += x; return s; };
 * const finiteNumbers = iterable(number, { finite: true });
 * const sumSpec = spec([finiteNumbers], number, (predict, _d, xs) => {
 *   const read = sourcePrefix(xs, Infinity);
 *   predict(pulls(read.values, read.then === 'threw' ? 'threw' : 'done'));
 * });
 * assertSpec(sumSpec, sum); // passes; over iterable(number), "the function probably diverges"
 * ```
 */
export function iterable<T>(elem: Shape<T>, options: { readonly finite?: boolean } = {}): Shape<Iterable<T>> {
  return iterableShape(elem, false, SYNC, finiteOption(options, 'iterable'));
}

/**
 * One-shot iterators of elements of shape `elem` (a generator object, an array's iterator): one
 * iteration, however many times `[Symbol.iterator]()` is called on it. With `{ finite: true }`,
 * a check generates only iterators that end, as {@link iterable}'s.
 *
 * @example
 * ```ts
 * const o = observeDetailed(normalize, (it: Iterator<number>) => it.next().value, [[1, 2].values()], { inputs: [iterator(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : _'
 * const finiteIterators = iterator(number, { finite: true }); // named FiniteIterator<number>
 * ```
 */
export function iterator<T>(elem: Shape<T>, options: { readonly finite?: boolean } = {}): Shape<Iterator<T>> {
  return iterableShape(elem, true, SYNC, finiteOption(options, 'iterator'));
}

/**
 * Re-iterable async sources of elements of shape `elem` (any object whose every
 * `[Symbol.asyncIterator]()` call starts a new iteration). Demands as {@link iterable}'s, with
 * `Ahead n` around an iteration that had `n` pulls pending at once. Observed only by the
 * asynchronous checks (`checkSpecAsync`, `assertSpecAsync`); a check generates sources whose
 * pulls settle after random delays, in random order, and may reject (see docs/iterators.md);
 * with `{ finite: true }`, only sources that end, as {@link iterable}'s.
 *
 * @example
 * ```ts
 * async function* firstTwo(xs: AsyncIterable<number>) { let n = 0; for await (const x of xs) { yield x; if (++n === 2) return; } }
 * const o = await observeDetailedAsync(normalize, firstTwo, [new AsyncSource({ elements: [1, 2, 3], infinite: false, hasReturn: true, delays: [] })], { inputs: [asyncIterable(number)], result: asyncIterable(number) });
 * prettyDemand(o.inputs[0]!); // '1 : 2 : return()'
 * ```
 *
 * @example
 * ```ts
 * // an async reduce pulls its source to the end: over finite sources only
 * const sumAsync = async (xs: AsyncIterable<number>) => { let s = 0; for await (const x of xs) s += x; return s; };
 * const sumAsyncSpec = spec([asyncIterable(number, { finite: true })], number, (predict, _d, xs) => {
 *   const read = sourcePrefix(xs, Infinity);
 *   predict(pulls(read.values, read.then === 'threw' ? 'threw' : 'done') as never);
 * });
 * await assertSpecAsync(sumAsyncSpec, sumAsync);
 * ```
 */
export function asyncIterable<T>(elem: Shape<T>, options: { readonly finite?: boolean } = {}): Shape<AsyncIterable<T>> {
  return iterableShape(elem, false, ASYNC, finiteOption(options, 'asyncIterable'));
}

/**
 * One-shot async iterators of elements of shape `elem` (an async generator object): one
 * iteration, however many times `[Symbol.asyncIterator]()` is called on it. See {@link asyncIterable},
 * and its option `finite`.
 *
 * @example
 * ```ts
 * const o = await observeDetailedAsync(normalize, async (it: AsyncIterator<number>) => (await it.next()).value, [new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: true, delays: [] }).iterator()], { inputs: [asyncIterator(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : _'
 * const finiteAsyncIterators = asyncIterator(number, { finite: true }); // named FiniteAsyncIterator<number>
 * ```
 */
export function asyncIterator<T>(elem: Shape<T>, options: { readonly finite?: boolean } = {}): Shape<AsyncIterator<T>> {
  return iterableShape(elem, true, ASYNC, finiteOption(options, 'asyncIterator'));
}
