/**
 * Building and reading demands in value form beyond lists (whose helpers are in the List
 * module: `cap`, `isCapped`, `spineForced`, `elementAt`...): lazy constructors of options and
 * tuples, evaluated layers at lazy positions, and the demand on a field.
 * @module
 */
import { isThunk, Lazy, now, thunk, type Thunk } from '../lazy/lazy.ts';
import type { Option } from './declared-data.ts';
import { isKnownBottom } from './guide.ts';

/**
 * An evaluated `Some` at a lazy position, holding `value` (a demand itself): on a
 * `lazyOf(option(lazyOf(number)))`, `lazySome(thunk)` is the demand `Some _`.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(lazySome(thunk), lazyOf(option(lazyOf(number))))); // 'Some _'
 * ```
 */
export function lazySome<T>(value: T): Lazy<Option<T>> {
  return now({ tag: 'Some', value });
}

/**
 * An evaluated `None` at a lazy position: the demand `None` on a `lazyOf(option(...))`.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(lazyNone, lazyOf(option(number)))); // 'None'
 * ```
 */
export const lazyNone: Lazy<Option<never>> = now({ tag: 'None' });

/**
 * An evaluated tuple at a lazy position, of the given components (demands themselves): on a
 * list of pairs with lazy components, `lazyTuple(thunk, now(2))` is the element demand `(_, 2)`.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(cons(lazyTuple(thunk, now(2)), thunk), list(tuple(lazyOf(number), lazyOf(number))))); // '(_, 2) : _'
 * ```
 */
export function lazyTuple<A extends unknown[]>(...components: A): Lazy<A> {
  return now(components);
}

/**
 * The demand on field `key` (a tuple's component, a record's field) of a demand at a lazy
 * position: `thunk` when that position was not evaluated.
 *
 * @example
 * ```ts
 * prettyValue(fieldDemand(lazyTuple(thunk, now(2)), 1)); // '2'
 * fieldDemand(thunk, 0) === thunk;                       // true: the pair was not evaluated
 * ```
 */
export function fieldDemand<T, K extends keyof T>(d: Lazy<T>, key: K): T[K] | Thunk {
  return isThunk(d) ? thunk : d.force()[key];
}

/**
 * Whether a part of a demand in value form is `⊥`: it was forced and threw. A spec meets one in
 * the demand on the result where the function passed on the failure of a generated source (its
 * input is `⊥` there): the whole result's demand for a function that threw it before returning
 * (`sum` over `iter [1, throw]`), or a lazy part whose forcing threw it (a list result's tail).
 * It is a `Lazy` that throws when forced, wherever it stands, even where the result's shape has
 * no `Lazy` (a `number`): test it before reading the demand.
 *
 * @example
 * ```ts
 * isBottom(thunk);  // false: not evaluated
 * isBottom(now(3)); // false: evaluated to 3
 * ```
 */
export function isBottom(d: unknown): boolean {
  return d instanceof Lazy && isKnownBottom(d);
}
