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
 * real one whose prototype refuses `add`, `set`, `delete` and `clear`. The built-in methods called
 * on it (`Set.prototype.add.call(set, x)`) go round that prototype, and nothing but replacing them
 * for the whole process could stop them: what it holds is compared with what it was given when the
 * observation ends (see {@link HeldCollection}), and a difference fails it as a refusal does.
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
  return owners.get(o) ?? refusingCopyOwner(o);
}

/** The owner of `o` if it is a {@link RefusingCopy} of an input: set in its static block, where alone its private field is read. */
let refusingCopyOwner: (o: object) => ChangeOwner | undefined;

/**
 * @internal A copy made for every input of its kind, a source's recorded iterable or iterator,
 * that refuses a change where it is an input's, telling its owner: told apart by a private field,
 * not noted in a WeakMap (a note per source and per iteration cost every check over iterables).
 * It adds no method nor static: the function given the copy reaches nothing of its owner.
 */
export class RefusingCopy {
  readonly #owner: ChangeOwner | undefined;
  /** `owner`: whom a change tells, for an input's copy (none for a result's, read by its context alone). */
  constructor(owner: ChangeOwner | undefined) {
    this.#owner = owner;
  }

  static {
    refusingCopyOwner = (o) => (#owner in o ? o.#owner : undefined);
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

/**
 * @internal A refusing Set or Map given to a function, with what it held then (a Map's keys and
 * values in turn), in insertion order: the built-in methods called on it change it unseen, so the
 * observation compares the two when it ends ({@link borrowedChange}). A list, each holding the one made before it.
 */
export class HeldCollection {
  private readonly held: readonly unknown[];
  constructor(
    private readonly copy: Set<unknown> | Map<unknown, unknown>,
    private readonly owner: ChangeOwner,
  ) {
    this.held = contents(copy);
  }

  /**
   * The error of a change that the built-in methods called on the collection made, if they made
   * one (its own refuse), noted as its owner notes a refusal: an element added or removed, an
   * entry's value replaced, or the order changed by removing and adding again.
   */
  borrowedChange(): Error | undefined {
    const { copy, held } = this;
    if (holds(copy, held)) return undefined;
    const set = copy instanceof Set;
    const kind = set ? 'Set' : 'Map';
    const step = set ? 1 : 2;
    const keysThen = new Set<unknown>();
    for (let i = 0; i < held.length; i += step) keysThen.add(held[i]);
    let kept = 0;
    for (const k of keysThen) if ((set ? Set : Map).prototype.has.call(copy, k)) kept++;
    const added = (set ? SET_SIZE : MAP_SIZE).call(copy) - kept;
    const removed = keysThen.size - kept;
    const what = [added > 0 ? `${count(added, set ? 'element' : 'entry')} added` : '', removed > 0 ? `${count(removed, set ? 'element' : 'entry')} removed` : ''].filter(Boolean).join(', ') || (set ? 'its order changed' : 'a value or the order changed');
    return this.owner.changed(`it changed the ${kind} through ${kind}.prototype's methods called on it (as ${kind}.prototype.${set ? 'add' : 'set'}.call(${kind === 'Set' ? 'set, x' : 'map, k, v'}) does), which go round its own and are seen only once the function has run: ${what}`);
  }
}

const SET_SIZE = Object.getOwnPropertyDescriptor(Set.prototype, 'size')!.get! as (this: unknown) => number;
const MAP_SIZE = Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get! as (this: unknown) => number;

/** What a Set or Map holds, in order, read through the built-in methods (not the copy's own): a Set's elements, a Map's keys and values in turn. */
function contents(copy: Set<unknown> | Map<unknown, unknown>): unknown[] {
  const out: unknown[] = [];
  if (copy instanceof Set) Set.prototype.forEach.call(copy, (x) => out.push(x));
  else Map.prototype.forEach.call(copy, (v, k) => out.push(k, v));
  return out;
}

/** Whether a Set or Map holds `held` still, in order (see {@link contents}), read in one pass. */
function holds(copy: Set<unknown> | Map<unknown, unknown>, held: readonly unknown[]): boolean {
  let i = 0;
  let same = true;
  const look = (x: unknown) => void (same &&= i < held.length && Object.is(x, held[i]), i++);
  if (copy instanceof Set) Set.prototype.forEach.call(copy, look);
  else Map.prototype.forEach.call(copy, (v, k) => (look(k), look(v)));
  return same && i === held.length;
}

/** `n` things, `noun` in the plural where it is not 1: `2 entries`. */
function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : noun === 'entry' ? 'entries' : `${noun}s`}`;
}
