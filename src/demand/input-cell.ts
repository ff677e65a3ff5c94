/**
 * The list cells given to an observed function. Frozen, a cell refuses a change in strict-mode
 * code only: sloppy-mode code's assignment to a frozen object is ignored without a word (as in a
 * CommonJS script without "use strict"), and a function may catch the TypeError and go on; either
 * would be observed as a function that leaves its input as it is, which its plain run is not. A
 * setter runs in both modes: an input's cell reads its head and tail through getters, and its
 * setters tell the observation, which fails whatever the function does with the error.
 * @module
 */
import { inspect, type InspectOptions } from 'node:util';
import type { Lazy } from '../lazy/lazy.ts';
import { Cons, type List } from '../lazy/cell.ts';

/** What a cell tells of a change: the error to throw, kept by the observation (see `Recording.changed`). */
export interface CellOwner {
  changed(key: 'head' | 'tail'): Error;
}

/**
 * A {@link Cons} of an observed function's input (`instanceof Cons`, with its `tag`), whose head
 * and tail are read through getters and cannot be set: a cell holds no own property to shadow
 * them, and is frozen, so that none can be defined.
 */
class InputCell<T> {
  readonly #head: Lazy<T>;
  readonly #tail: List<T>;
  readonly #owner: CellOwner;

  constructor(head: Lazy<T>, tail: List<T>, owner: CellOwner) {
    this.#head = head;
    this.#tail = tail;
    this.#owner = owner;
  }

  get head(): Lazy<T> {
    return this.#head;
  }
  set head(_: Lazy<T>) {
    refuse(this.#owner, 'head');
  }
  get tail(): List<T> {
    return this.#tail;
  }
  set tail(_: List<T>) {
    refuse(this.#owner, 'tail');
  }

  /** Printed as the Cons it stands for. */
  [inspect.custom](_depth: number, options: InspectOptions): string {
    return inspect(new Cons(this.#head, this.#tail), options);
  }
}
// A Cons to `instanceof`, `tag` and `constructor`, as the cell it copies.
Object.setPrototypeOf(InputCell.prototype, Cons.prototype);
Object.defineProperty(InputCell.prototype, 'constructor', { value: Cons });

const SETTERS = { head: Object.getOwnPropertyDescriptor(InputCell.prototype, 'head')!.set!, tail: Object.getOwnPropertyDescriptor(InputCell.prototype, 'tail')!.set! };

/** Throws the error `owner` gives for a change to `key`, its stack starting at the function's assignment, not in strictcheck. */
function refuse(owner: CellOwner, key: 'head' | 'tail'): never {
  const err = owner.changed(key);
  Error.captureStackTrace(err, SETTERS[key]);
  throw err;
}

/** @internal A frozen cell of an observed function's input, holding `head` and `tail`, whose changes `owner` is told of. */
export function inputCell<T>(head: Lazy<T>, tail: List<T>, owner: CellOwner): Cons<T> {
  return Object.freeze(new InputCell(head, tail, owner)) as unknown as Cons<T>;
}
