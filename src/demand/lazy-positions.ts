/**
 * Lazy positions, where a demand can say "not evaluated", and the lazy lists made of them.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { Cons, Nil, NIL, type Cell, type List } from '../lazy/cell.ts';
import { mismatch, ShapeMismatchError } from './shape-errors.ts';
import { showPath } from './path.ts';
import { NO_FIELDS, NO_SHAPES, type Alternative, type Ctor, type Layer, type Shape } from './shape-types.ts';

/** The name of a shape of {@link lazyOf}, an own enumerable accessor as a literal's getter is. */
const LAZY_NAME: PropertyDescriptor = {
  get(this: { inner(): Shape<unknown> }): string {
    return `Lazy<${this.inner().name}>`;
  },
  enumerable: true,
  configurable: true,
};

/**
 * A lazy position holding a value of shape `inner`: where a demand can say "not evaluated".
 *
 * @example
 * ```ts
 * tuple(number, lazyOf(string)).name; // '[number, Lazy<string>]': the second component may stay unevaluated
 * ```
 */
export function lazyOf<T>(inner: Shape<T> | (() => Shape<T>)): Shape<Lazy<T>> {
  const get = typeof inner === 'function' ? (inner as () => Shape<T>) : () => inner;
  // The name an accessor defined on the object, every shape's the same getter: V8 makes an object
  // literal with a getter in dictionary mode, whose properties (`kind`, `inner`, read at every lazy
  // position a walk meets) optimised code reads through the generic load; so, one hidden class for all.
  const shape = Object.defineProperty({ kind: 'lazy', inner: get as () => Shape<unknown> }, 'name', LAZY_NAME) as { kind: 'lazy'; inner: () => Shape<unknown>; name: string; project: Shape<unknown>['project'] };
  shape.project = (value, path) => {
    // Lazy positions are handled by the walkers themselves; projecting one is a misuse.
    // A list cell here is the common slip: a list inside a list, or a cell given for a list.
    if (!(value instanceof Lazy)) mismatch(path, value instanceof Cons || value instanceof Nil ? 'a Lazy (a list is a Lazy of its first cell: wrap the cell with now(…))' : Array.isArray(value) && isListCell(get() as Shape<unknown>) ? AN_ARRAY_FOR_A_LIST : 'a Lazy', value);
    throw new TypeError('a lazy shape has no layer: force the Lazy and project its value');
  };
  return shape as Shape<Lazy<T>>;
}

/** What a lazy list's position expected where it found an array: a newcomer's slip, said with its fix. */
const AN_ARRAY_FOR_A_LIST = 'a lazy list (a Lazy of its first cell, not an array: fromArray(array) makes one, and an arbitrary of arrays gives them with .map(fromArray))';

/** @internal Whether `s` is the shape of a list cell (of {@link cell}). */
export function isListCell(s: Shape<unknown>): boolean {
  return s.kind === 'data' && s.alternatives()[1]?.ctor === CONS_CTOR;
}

// ---------------------------------------------------------------------------------------------
// Lists

/** The constructors of list cells. */
export const NIL_CTOR: Ctor = { name: '[]', keys: [], style: 'nil', build: () => NIL };
export const CONS_CTOR: Ctor = {
  name: ':',
  keys: ['head', 'tail'],
  style: 'cons',
  build: (f) => new Cons(f[0] as Lazy<unknown>, f[1] as List<unknown>),
};

/** @internal Where an end of a list other than `[]` keeps what it is (see {@link OtherEnd}). */
export const OTHER_END = Symbol('strictcheck.otherEnd');

/**
 * @internal What an end of a list other than `[]` (an empty list to the `List` functions: an
 * iteration's `return()`) holds under {@link OTHER_END}: its constructor, which the dynamic shape
 * reads it as; or `refused`, why it is read only at its declared shape, which says what it means
 * (`taken`). A declared list refuses it: a list has no such end.
 */
export interface OtherEnd {
  readonly ctor: Ctor;
  readonly refused?: string;
}

/** @internal What `end` is if it is not a list's `[]` (see {@link OtherEnd}). */
export function otherEnd(end: Nil): OtherEnd | undefined {
  return (end as { [OTHER_END]?: OtherEnd })[OTHER_END];
}

const cellShapes = new WeakMap<Shape<unknown>, Shape<unknown>>();

/** The layer of `[]`, one for every list: a walk meets the end of every list it reaches. */
const NIL_LAYER: Layer = Object.freeze({ ctor: NIL_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES });

/**
 * The shape of one list cell with elements of shape `elem`.
 *
 * @example
 * ```ts
 * cell(number).name; // 'List<number>': what a List.List<number> holds once forced
 * ```
 */
export function cell<T>(elem: Shape<T>): Shape<Cell<T>> {
  const cached = cellShapes.get(elem as Shape<unknown>);
  if (cached) return cached as Shape<Cell<T>>;
  const consShapes: Shape<unknown>[] = [];
  const alternatives: Alternative[] = [
    { ctor: NIL_CTOR, shapes: NO_SHAPES },
    { ctor: CONS_CTOR, shapes: consShapes },
  ];
  const s: Shape<Cell<T>> = {
    kind: 'data',
    name: `List<${elem.name}>`,
    alternatives: () => alternatives,
    project(value, path) {
      if (value instanceof Cons) return { ctor: CONS_CTOR, fields: [value.head, value.tail], shapes: consShapes };
      if (value instanceof Nil) {
        const other = otherEnd(value);
        if (other === undefined) return NIL_LAYER;
        const found = `${other.ctor.name}, the end of an iteration, which a list has not: declare the shape iterable(…) (or iterator(…), asyncIterable(…))`;
        throw new ShapeMismatchError(showPath(path), `a list cell of List<${elem.name}>`, value, found);
      }
      return mismatch(path, `a list cell of List<${elem.name}>`, value);
    },
  };
  consShapes.push(lazyOf(elem) as Shape<unknown>, lazyOf(s) as Shape<unknown>);
  cellShapes.set(elem as Shape<unknown>, s as Shape<unknown>);
  return s;
}

/**
 * Lazy lists of elements of shape `elem`: a lazy spine with lazy elements.
 *
 * @example
 * ```ts
 * list(number).name; // 'Lazy<List<number>>'
 * toDemand(fromArray(['a']) as unknown as List.List<number>, list(number)); // throws ShapeMismatchError at demand.head
 * ```
 */
export function list<T>(elem: Shape<T>): Shape<List<T>> {
  return lazyOf(cell(elem));
}
