/**
 * Shapes of iterables: `iterable(elem)`, a re-iterable source (each `[Symbol.iterator]()` call is
 * a new iteration, as an array's), and `iterator(elem)`, a one-shot iterator or generator object.
 * Each is a lazy position whose value form is the demand of its iterations (see `demand.ts`), and
 * whose values take part in observation, contexts, generation and shrinking through the shape's
 * protocol.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { Cons, Nil } from '../lazy/cell.ts';
import { CONS_CTOR, lazyOf } from '../demand/lazy-positions.ts';
import { showPath } from '../demand/path.ts';
import { number } from '../demand/primitives.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Alternative, Layer, Protocol, Shape } from '../demand/shape-types.ts';
import type { Recording } from '../demand/instrument.ts';
import type { Guide } from '../demand/guide.ts';
import { Ahead, AHEAD_CTOR, DONE_CTOR, END_CTORS, IterEnd, Iterations, iterationsCtor } from './demand.ts';
import { consumeAsyncIterable, consumeAsyncRandomly, instrumentAsyncIterable, isAsyncIterable } from './async-observe.ts';
import { consumeIterable, consumeRandomly, instrumentIterable, isIterable } from './observe.ts';
import { describeSource, sourceOf } from './source.ts';
import { generateAsyncSource, generateSource, shrinkSource } from './generate.ts';
import { OWN_SERIES } from '../engine/series.ts';
import { iterableSeries } from './series.ts';


/**
 * The shape of the demand on one iteration in value form: a list cell, or one of the ends
 * (`[]`, `return()`, `throw()`, `⊥`), or the `Iterations` of a re-iterable source.
 */
function iterationCell(elem: Shape<unknown>, name: string): Shape<unknown> {
  const consShapes: Shape<unknown>[] = [];
  const alternatives: Alternative[] = [
    { ctor: DONE_CTOR, shapes: [] },
    { ctor: CONS_CTOR, shapes: consShapes },
    ...Object.values(END_CTORS).map((ctor) => ({ ctor, shapes: [] })),
  ];
  const s: Shape<unknown> = {
    kind: 'data',
    name,
    alternatives: () => alternatives,
    project(value, path): Layer {
      if (value instanceof Cons) return { ctor: CONS_CTOR, fields: [value.head, value.tail], shapes: consShapes };
      if (value instanceof IterEnd) return { ctor: value.ctor, fields: [], shapes: [] };
      if (value instanceof Nil) return { ctor: DONE_CTOR, fields: [], shapes: [] };
      if (value instanceof Ahead) return { ctor: AHEAD_CTOR, fields: [value.pending, value.iteration], shapes: [number as Shape<unknown>, iteration] };
      if (value instanceof Iterations) return { ctor: iterationsCtor(value.iterations.length), fields: value.iterations, shapes: value.iterations.map(() => iteration) };
      throw new ShapeMismatchError(showPath(path), `the demand on an iteration of ${name} (a lazy list of its pulls, ending in thunk, NIL, RETURNED, THROWN or THREW)`, value);
    },
  };
  const iteration = lazyOf(s) as Shape<unknown>;
  consShapes.push(lazyOf(elem) as Shape<unknown>, iteration);
  return s;
}

/** How the values of an iterable shape are observed and generated: sync or async. */
const SYNC = { prefix: '', isIterable, instrument: instrumentIterable, consume: consumeIterable, consumeRandomly, generate: generateSource } as const;
const ASYNC = { prefix: 'Async', isIterable: isAsyncIterable, instrument: instrumentAsyncIterable, consume: consumeAsyncIterable, consumeRandomly: consumeAsyncRandomly, generate: generateAsyncSource } as const;

/** An iterable shape: a lazy position over its iterations' demand, with the protocol of `oneShot` iterators or re-iterable sources, sync or `async`. */
function iterableShape<T>(elem: Shape<T>, oneShot: boolean, mode: typeof SYNC | typeof ASYNC = SYNC): Shape<any> {
  const name = `${mode.prefix}${oneShot ? 'Iterator' : 'Iterable'}<${elem.name}>`;
  const cell = iterationCell(elem as Shape<unknown>, name);
  const elements = elem as Shape<unknown>;
  let self: Shape<unknown>;
  const protocol: Protocol = {
    async: mode === ASYNC,
    instrument: (value, path, into, at, rec) => mode.instrument(value, self, elements, oneShot, path, into, at, rec as Recording),
    consume: (value, path, guide, into, at, fit) => mode.consume(value, self, elements, path, guide as Guide, into, at, fit),
    consumeRandomly: (value, path, r, size, into, at) => mode.consumeRandomly(value, self, elements, path, r, size, into, at),
    generate: (r, size, generate) => {
      const source = mode.generate(elem as Shape<unknown>, r, size, generate);
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
    // The exhaustive mode enumerates sync iterables (async ones are checked at random only).
    ...(mode === SYNC ? { [OWN_SERIES]: iterableSeries(elements, oneShot) } : {}),
    project(value, path): Layer {
      // A lazy position has no layer but an iterable's own value, which a report prints as what it does.
      if (value instanceof Lazy) throw new TypeError('a lazy shape has no layer: force the Lazy and project its value');
      const source = sourceOf(value);
      if (source !== undefined) return atom(describeSource(source, elem as Shape<unknown>), value);
      if (mode.isIterable(value)) return atom(`<${mode.prefix.toLowerCase()}${oneShot ? 'iterator' : 'iterable'}>`, value);
      throw new ShapeMismatchError(showPath(path), `${mode === ASYNC ? 'an async ' : 'an '}${oneShot ? 'iterator' : 'iterable'} of ${elem.name}, or its demand in value form (a lazy list)`, value);
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
 * sources (finite or not, throwing at a pull, without `return`) and consumes an iterable result
 * as random consumers do.
 *
 * @example
 * ```ts
 * const o = observeDetailed(normalize, (xs: Iterable<number>) => [...xs].slice(0, 1), [[1, 2]], { inputs: [iterable(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : 2 : []'
 * ```
 */
export function iterable<T>(elem: Shape<T>): Shape<Iterable<T>> {
  return iterableShape(elem, false);
}

/**
 * One-shot iterators of elements of shape `elem` (a generator object, an array's iterator): one
 * iteration, however many times `[Symbol.iterator]()` is called on it.
 *
 * @example
 * ```ts
 * const o = observeDetailed(normalize, (it: Iterator<number>) => it.next().value, [[1, 2].values()], { inputs: [iterator(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : _'
 * ```
 */
export function iterator<T>(elem: Shape<T>): Shape<Iterator<T>> {
  return iterableShape(elem, true);
}

/**
 * Re-iterable async sources of elements of shape `elem` (any object whose every
 * `[Symbol.asyncIterator]()` call starts a new iteration). Demands as {@link iterable}'s, with
 * `Ahead n` around an iteration that had `n` pulls pending at once. Observed only by the
 * asynchronous checks (`checkSpecAsync`, `assertSpecAsync`); a check generates sources whose
 * pulls settle after random delays, in random order, and may reject (see docs/iterators.md).
 *
 * @example
 * ```ts
 * async function* firstTwo(xs: AsyncIterable<number>) { let n = 0; for await (const x of xs) { yield x; if (++n === 2) return; } }
 * const o = await observeDetailedAsync(normalize, firstTwo, [new AsyncSource({ elements: [1, 2, 3], infinite: false, hasReturn: true, delays: [] })], { inputs: [asyncIterable(number)], result: asyncIterable(number) });
 * prettyDemand(o.inputs[0]!); // '1 : 2 : return()'
 * ```
 */
export function asyncIterable<T>(elem: Shape<T>): Shape<AsyncIterable<T>> {
  return iterableShape(elem, false, ASYNC);
}

/**
 * One-shot async iterators of elements of shape `elem` (an async generator object): one
 * iteration, however many times `[Symbol.asyncIterator]()` is called on it. See {@link asyncIterable}.
 *
 * @example
 * ```ts
 * const o = await observeDetailedAsync(normalize, async (it: AsyncIterator<number>) => (await it.next()).value, [new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: true, delays: [] }).iterator()], { inputs: [asyncIterator(number)] });
 * prettyDemand(o.inputs[0]!); // '1 : _'
 * ```
 */
export function asyncIterator<T>(elem: Shape<T>): Shape<AsyncIterator<T>> {
  return iterableShape(elem, true, ASYNC);
}
