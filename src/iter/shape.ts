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
import { CONS_CTOR, lazyOf, ShapeMismatchError, showPath, type Alternative, type Layer, type Protocol, type Shape } from '../demand/shape.ts';
import type { Recording } from '../demand/instrument.ts';
import type { Guide } from '../demand/record.ts';
import { DONE_CTOR, END_CTORS, IterEnd, Iterations, iterationsCtor } from './demand.ts';
import { consumeIterable, consumeRandomly, instrumentIterable, isIterable } from './observe.ts';
import { describeSource, sourceOf, type Source } from './source.ts';
import { generateSource, shrinkSource } from './generate.ts';


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
      if (value instanceof Iterations) return { ctor: iterationsCtor(value.iterations.length), fields: value.iterations, shapes: value.iterations.map(() => iteration) };
      throw new ShapeMismatchError(showPath(path), `the demand on an iteration of ${name} (a lazy list of its pulls, ending in thunk, NIL, RETURNED, THROWN or THREW)`, value);
    },
  };
  const iteration = lazyOf(s) as Shape<unknown>;
  consShapes.push(lazyOf(elem) as Shape<unknown>, iteration);
  return s;
}

/** An iterable shape: a lazy position over its iterations' demand, with the protocol of `oneShot` iterators or re-iterable sources. */
function iterableShape<T>(elem: Shape<T>, oneShot: boolean): Shape<any> {
  const name = `${oneShot ? 'Iterator' : 'Iterable'}<${elem.name}>`;
  const cell = iterationCell(elem as Shape<unknown>, name);
  const elements = elem as Shape<unknown>;
  let self: Shape<unknown>;
  const protocol: Protocol = {
    instrument: (value, path, into, at, rec) => instrumentIterable(value, self, elements, oneShot, path, into, at, rec as Recording),
    consume: (value, path, guide, into, at, fit) => consumeIterable(value, self, elements, path, guide as Guide, into, at, fit),
    consumeRandomly: (value, path, r, size, into, at) => consumeRandomly(value, self, elements, path, r, size, into, at),
    generate: (r, size, generate) => {
      const source = generateSource(elem as Shape<unknown>, r, size, generate);
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
    project(value, path): Layer {
      // A lazy position has no layer but an iterable's own value, which a report prints as what it does.
      if (value instanceof Lazy) throw new TypeError('a lazy shape has no layer: force the Lazy and project its value');
      const source = sourceOf(value);
      if (source !== undefined) return atom(describeSource(source as Source<unknown>, elem as Shape<unknown>), value);
      if (isIterable(value)) return atom(oneShot ? '<iterator>' : '<iterable>', value);
      throw new ShapeMismatchError(showPath(path), `${oneShot ? 'an iterator' : 'an iterable'} of ${elem.name}, or its demand in value form (a lazy list)`, value);
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
