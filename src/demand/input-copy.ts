/**
 * The copies of its inputs that an observed function is given refuse any change, in any mode.
 * Frozen, a copy refuses a change in strict-mode code only: sloppy-mode code's assignment to a
 * frozen object is ignored without a word (as in a CommonJS script without "use strict"), and a
 * function may catch the TypeError and go on; either would be observed as a function that leaves
 * its input as it is, which its plain run is not. So a copy (a list cell, an array, a record, a
 * tuple, a value of a declared type) is its frozen self behind a Proxy whose traps refuse a change
 * and tell the observation, which fails whatever the function does with the error; reading it is
 * reading the copy (its own fields, its prototype), so it copies and prints as a plain value does.
 * A Set or a Map cannot be read through a Proxy (its methods need the collection itself): it is a
 * real one whose prototype refuses `add`, `set`, `delete` and `clear`.
 * @module
 */
import { keyText } from './key-text.ts';

/** Where a copy tells of a change, `what` the function did: the error to throw, kept by the observation (see `Recording.changed`). */
export interface ChangeOwner {
  changed(what: string): Error;
}

/** Throws the error `owner` gives for `what`, its stack starting at the function's change, not in strictcheck (`from`: the trap or method called). */
function refuse(owner: ChangeOwner, what: string, from: Function): never {
  const err = owner.changed(what);
  Error.captureStackTrace(err, from);
  throw err;
}

/** What a change of property `key` of a copy of `cell` changes, in a message. */
const propertyOf = (key: PropertyKey, cell: boolean) => (cell && (key === 'head' || key === 'tail') ? `the ${key} of a cell` : `its ${keyText(key)}`);

/** The handler of a copy's Proxy: {@link TRAPS}, with whom to tell of a change, and whether its copies are list cells (named so in messages). */
interface Refusal extends ProxyHandler<object> {
  readonly owner: ChangeOwner;
  readonly cells: boolean;
}

/**
 * The traps of a copy's Proxy: each refuses what would change its frozen target, and lets through
 * what would not (freezing it again, deleting a property it has not, setting the prototype it has),
 * as the frozen copy itself does.
 */
const TRAPS = {
  set(this: Refusal, _target: object, key: PropertyKey): boolean {
    return refuse(this.owner, `it assigned to ${propertyOf(key, this.cells)}`, TRAPS.set);
  },
  defineProperty(this: Refusal, target: object, key: PropertyKey, desc: PropertyDescriptor): boolean {
    return Reflect.defineProperty(target, key, desc) || refuse(this.owner, `it defined ${propertyOf(key, this.cells)}`, TRAPS.defineProperty);
  },
  deleteProperty(this: Refusal, target: object, key: PropertyKey): boolean {
    return !Object.hasOwn(target, key) || refuse(this.owner, `it deleted ${propertyOf(key, this.cells)}`, TRAPS.deleteProperty);
  },
  setPrototypeOf(this: Refusal, target: object, proto: object | null): boolean {
    return Reflect.getPrototypeOf(target) === proto || refuse(this.owner, 'it set its prototype', TRAPS.setPrototypeOf);
  },
};

/**
 * @internal The handler for the cells of one list (`cells`), or for another copy, whose changes
 * `owner` is told of. Without a prototype: a read through the Proxy looks for a `get` trap on its
 * handler first, and finds none the sooner (one made per list for its cells, and per other copy).
 */
export const refusal = (owner: ChangeOwner, cells: boolean): ProxyHandler<object> => Object.assign(Object.create(null) as object, TRAPS, { owner, cells });

/** @internal `copy`, frozen, as the function is given it: behind `refusal`'s traps. */
export function refusing<T extends object>(copy: T, refusal: ProxyHandler<object>): T {
  return new Proxy(Object.freeze(copy), refusal) as T;
}

/** The owner of each refusing Set or Map. */
const collectionOwners = new WeakMap<object, ChangeOwner>();

/** The prototype of a refusing Set or Map: the built-in one's, with its changing methods refusing. */
function refusingPrototype(builtin: object, methods: readonly string[], kind: string): object {
  const proto = Object.create(builtin) as object;
  for (const name of methods) {
    const method = {
      [name](this: object): never {
        return refuse(collectionOwners.get(this)!, `it called ${name} on the ${kind}`, method);
      },
    }[name]!;
    Object.defineProperty(proto, name, { value: method, writable: true, configurable: true });
  }
  return Object.freeze(proto);
}
const SET_PROTOTYPE = refusingPrototype(Set.prototype, ['add', 'delete', 'clear'], 'Set');
const MAP_PROTOTYPE = refusingPrototype(Map.prototype, ['set', 'delete', 'clear'], 'Map');

/** @internal Whether `p` is the prototype of the refusing Sets (`'Set'`) or Maps (`'Map'`) given to functions: built-in data all the same. */
export const isRefusingPrototype = (p: object, name: 'Set' | 'Map'): boolean => p === (name === 'Set' ? SET_PROTOTYPE : MAP_PROTOTYPE);

/** @internal Copy `copy`, a Set or a Map, frozen, as the function is given it: its changing methods refuse, telling `owner`. */
export function refusingCollection<T extends object>(copy: T, set: boolean, owner: ChangeOwner): T {
  Object.setPrototypeOf(copy, set ? SET_PROTOTYPE : MAP_PROTOTYPE);
  collectionOwners.set(copy, owner);
  return Object.freeze(copy);
}
