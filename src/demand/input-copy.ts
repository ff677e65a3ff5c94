/**
 * The copies of its inputs that an observed function is given refuse any change, in any mode.
 * Frozen, a copy refuses a change in strict-mode code only: sloppy-mode code's assignment to a
 * frozen object is ignored without a word (as in a CommonJS script without "use strict"), and a
 * function may catch the TypeError and go on; either would be observed as a function that leaves
 * its input as it is, which its plain run is not. So a copy (an array, a record, a tuple, a value
 * of a declared type) is its frozen self behind a Proxy whose traps refuse a change and tell the
 * observation, which fails whatever the function does with the error; reading it is reading the
 * copy (its own fields, its prototype), so it copies and prints as a plain value does. A list
 * cell, made for every element of a list, refuses through setters instead (see `input-cell.ts`).
 * A Set or a Map cannot be read through a Proxy (its methods need the collection itself): it is a
 * real one whose prototype refuses `add`, `set`, `delete` and `clear`.
 * @module
 */
import { keyText } from './key-text.ts';

/** Where a copy tells of a change, `what` the function did: the error to throw, kept by the observation (see `Recording.changed`). */
export interface ChangeOwner {
  changed(what: string): Error;
}

/** @internal Throws the error `owner` gives for `what`, its stack starting at the function's change, not in strictcheck (`from`: the trap, method or setter called). */
export function refuse(owner: ChangeOwner, what: string, from: Function): never {
  const err = owner.changed(what);
  Error.captureStackTrace(err, from);
  throw err;
}

/** The handler of a copy's Proxy: {@link TRAPS}, with whom to tell of a change. */
interface Refusal extends ProxyHandler<object> {
  readonly owner: ChangeOwner;
}

/**
 * The traps of a copy's Proxy: each refuses what would change its frozen target, and lets through
 * what would not (freezing it again, deleting a property it has not, setting the prototype it has),
 * as the frozen copy itself does.
 */
const TRAPS = {
  set(this: Refusal, _target: object, key: PropertyKey): boolean {
    return refuse(this.owner, `it assigned to its ${keyText(key)}`, TRAPS.set);
  },
  defineProperty(this: Refusal, target: object, key: PropertyKey, desc: PropertyDescriptor): boolean {
    return Reflect.defineProperty(target, key, desc) || refuse(this.owner, `it defined its ${keyText(key)}`, TRAPS.defineProperty);
  },
  deleteProperty(this: Refusal, target: object, key: PropertyKey): boolean {
    return !Object.hasOwn(target, key) || refuse(this.owner, `it deleted its ${keyText(key)}`, TRAPS.deleteProperty);
  },
  setPrototypeOf(this: Refusal, target: object, proto: object | null): boolean {
    return Reflect.getPrototypeOf(target) === proto || refuse(this.owner, 'it set its prototype', TRAPS.setPrototypeOf);
  },
};

/**
 * @internal `copy`, frozen, as the function is given it: behind {@link TRAPS}, telling `owner`.
 * Its handler has no prototype: a read through the Proxy looks for a `get` trap on its handler
 * first, and finds none the sooner.
 */
export function refusing<T extends object>(copy: T, owner: ChangeOwner): T {
  return new Proxy(Object.freeze(copy), Object.assign(Object.create(null) as object, TRAPS, { owner })) as T;
}

/** The owner of each refusing Set or Map, which a refusing prototype's methods tell of a change. */
const owners = new WeakMap<object, ChangeOwner>();

/**
 * An assignment of `value` to `key` of `o` through a setter that stands for a method
 * (see {@link refusingAssignments}): refused where `o` is an input's copy, else an own field, as
 * an assignment to a plain object gives it. `from`: the setter.
 */
function assignedTo(o: object, key: PropertyKey, value: unknown, from: Function): void {
  const owner = copyOwner(o);
  if (owner) refuse(owner, `it assigned to its ${keyText(key)}`, from);
  ownField(o, key, value);
}

/** @internal Gives `o` the own field `key` an assignment to a plain object gives it (where a setter of strictcheck's was met instead). */
export function ownField(o: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * @internal Makes methods `keys` of `proto` accessors, read as the methods they were, whose
 * setters refuse an assignment to an input's copy in any mode ({@link assignedTo}): an own
 * field would shadow the method, in a sloppy-mode assignment to a frozen object too.
 */
export function refusingAssignments(proto: object, keys: readonly PropertyKey[]): void {
  for (const key of keys) {
    const method: unknown = (proto as Record<PropertyKey, unknown>)[key];
    const set = function (this: object, value: unknown): void {
      assignedTo(this, key, value, set);
    };
    Object.defineProperty(proto, key, { get: () => method, set, configurable: true });
  }
}

/** The owner of `o` if it is an input's copy a refusing Set or Map, or a {@link RefusingCopy} of an input. */
function copyOwner(o: object): ChangeOwner | undefined {
  return owners.get(o) ?? RefusingCopy.ownerOf(o);
}

/**
 * @internal A copy made for every input of its kind, a source's recorded iterable or iterator,
 * that refuses a change where it is an input's: told apart by a private field, not noted in a
 * WeakMap (a note per source and per iteration cost every check over iterables).
 */
export abstract class RefusingCopy {
  readonly #input: boolean;
  constructor(input: boolean) {
    this.#input = input;
  }

  /** The error for a change `what` to this input's copy (see `Recording.changedInput`). */
  abstract refusal(what: string): Error;

  /** Who `o` tells of a change, if it is an input's copy of this kind. */
  static ownerOf(o: object): ChangeOwner | undefined {
    return #input in o && o.#input ? { changed: (what) => (o as RefusingCopy).refusal(what) } : undefined;
  }
}

/** The prototype of a refusing Set or Map: the built-in one's, with its changing methods refusing. */
function refusingPrototype(builtin: object, methods: readonly string[], kind: string): object {
  const proto = Object.create(builtin) as object;
  for (const name of methods) {
    const method = {
      [name](this: object): never {
        return refuse(owners.get(this)!, `it called ${name} on the ${kind}`, method);
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
  owners.set(copy, owner);
  return Object.freeze(copy);
}
