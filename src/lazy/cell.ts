/**
 * The cells of lazy lists. A `List<T>` is a `Lazy` of a cell; a cons cell's head and tail are
 * `Lazy` too, so a function can walk the spine without touching the elements, or stop anywhere.
 * @module
 */
import { Lazy, now } from './lazy.ts';

/** A lazy list: a thunk of either the empty cell or a cons cell. */
export type List<T> = Lazy<Cell<T>>;

/** One cell of a lazy list. */
export type Cell<T> = Nil | Cons<T>;

/** The empty list's cell. There is one: {@link NIL}. */
export class Nil {
  /** Always `'Nil'` (held on the prototype, not by each cell). */
  declare readonly tag: 'Nil';
}

/** A cons cell: a lazy head and a lazy tail. */
export class Cons<T> {
  /** Always `'Cons'` (held on the prototype, not by each cell). */
  declare readonly tag: 'Cons';
  constructor(
    /** The element. */
    readonly head: Lazy<T>,
    /** The rest of the list. */
    readonly tail: List<T>,
  ) {}
}

/** The empty cell. */
export const NIL: Nil = new Nil();

/** The empty list, already evaluated. */
export const nil: List<never> = now(NIL);

// Tags live on the prototypes: a cell is allocated for every element of every list, so it holds only its fields.
Object.defineProperty(Nil.prototype, 'tag', { value: 'Nil' });
Object.defineProperty(Cons.prototype, 'tag', { value: 'Cons' });
