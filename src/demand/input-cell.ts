/**
 * The list cells given to an observed function. Frozen, a cell refuses a change in strict-mode
 * code only: sloppy-mode code's assignment to a frozen object is ignored without a word (as in a
 * CommonJS script without "use strict"), and a function may catch the TypeError and go on; either
 * would be observed as a function that leaves its input as it is, which its plain run is not. A
 * setter runs in both modes: an input's cell reads its head and tail through getters, and its
 * setters tell the observation, which fails whatever the function does with the error. Not a
 * Proxy, as an input's other copies are (see `input-copy.ts`): a cell is made for every element
 * of every list, and a Proxy's cost per cell showed in every observation of a list.
 * @module
 */
import { inspect, type InspectOptions } from 'node:util';
import type { Lazy } from '../lazy/lazy.ts';
import { Cons, type List } from '../lazy/cell.ts';
import { ownField, refuse, type ChangeOwner } from './input-copy.ts';

// A cell's fields: own and enumerable, so that a copy of it onto its prototype
// (`Object.assign(Object.create(proto), cell, patch)`) keeps them, and the getters read them.
const HEAD = Symbol('head');
const TAIL = Symbol('tail');

/**
 * A {@link Cons} of an observed function's input (`instanceof Cons`, with its `tag`), whose head
 * and tail are read through getters and cannot be set: a cell holds no own property to shadow
 * them, and is frozen, so that none can be defined. On another object (a copy of a cell, made on
 * its prototype) the accessors are a plain field's: the getter reads the copied field, and the
 * setter gives the object an own `head` or `tail`, as an assignment to a plain `Cons` does.
 */
class InputCell<T> {
  declare readonly [HEAD]: Lazy<T>;
  declare readonly [TAIL]: List<T>;
  readonly #owner: ChangeOwner;

  constructor(head: Lazy<T>, tail: List<T>, owner: ChangeOwner) {
    this[HEAD] = head;
    this[TAIL] = tail;
    this.#owner = owner;
  }

  get head(): Lazy<T> {
    return this[HEAD];
  }
  set head(value: Lazy<T>) {
    if (#owner in this) refuse(this.#owner, 'it assigned to the head of a cell', SETTERS.head);
    ownField(this, 'head', value);
  }
  get tail(): List<T> {
    return this[TAIL];
  }
  set tail(value: List<T>) {
    if (#owner in this) refuse(this.#owner, 'it assigned to the tail of a cell', SETTERS.tail);
    ownField(this, 'tail', value);
  }

  /** Printed as the Cons it stands for. */
  [inspect.custom](_depth: number, options: InspectOptions): string {
    return inspect(new Cons(this.head, this.tail), options);
  }
}
// A Cons to `instanceof`, `tag` and `constructor`, as the cell it copies.
Object.setPrototypeOf(InputCell.prototype, Cons.prototype);
Object.defineProperty(InputCell.prototype, 'constructor', { value: Cons });

const SETTERS = { head: Object.getOwnPropertyDescriptor(InputCell.prototype, 'head')!.set!, tail: Object.getOwnPropertyDescriptor(InputCell.prototype, 'tail')!.set! };

/** @internal A frozen cell of an observed function's input, holding `head` and `tail`, whose changes `owner` is told of. */
export function inputCell<T>(head: Lazy<T>, tail: List<T>, owner: ChangeOwner): Cons<T> {
  return Object.freeze(new InputCell(head, tail, owner)) as unknown as Cons<T>;
}
