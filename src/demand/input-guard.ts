/**
 * The built-ins that change an object without passing through a Proxy's traps or a setter:
 * `Object.defineProperty` (`defineProperties`, `Reflect.defineProperty`), `Object.setPrototypeOf`
 * (`Reflect.setPrototypeOf`, the `__proto__` setter), `Reflect.deleteProperty`, `Object.freeze`
 * (`seal`, `preventExtensions`, `Reflect.preventExtensions`). An input's copy that is a Proxy
 * refuses them in its traps (see `input-copy.ts`); the others do not: a list cell, a Set or a Map
 * is frozen, and a frozen object throws V8's TypeError, which a function may catch and go on from
 * as if the change were made (in a plain run it is); a source's recorded iterable or iterator is
 * not frozen (its state changes as it is pulled), and would change. Once an observation first
 * gives out input copies, these built-ins are replaced, for good, by versions that refuse a change
 * to a copy, telling its owner, so that the observation fails whatever the function does with the
 * error; on any other object they are the built-ins themselves. For good: putting them back after
 * each observation made a check several times slower (V8 drops its optimized code at each change).
 * Not replaced: a Set's or a Map's own methods, which `Set.prototype.add.call(set, x)` calls on a
 * copy (replacing them would cost every `add` of the process, strictcheck's own walks among them),
 * and the `delete` operator, which has no built-in (on a list cell's `head`, which a cell holds on
 * its prototype, it deletes nothing).
 * @module
 */
import { keyText } from './key-text.ts';
import { cellOwner } from './input-cell.ts';
import { copyOwner, refuse, type ChangeOwner } from './input-copy.ts';

/** The owner of `o` if it is an input's copy that no trap guards (a list cell, a Set or Map, a recorded source or iterator). */
function ownerOf(o: unknown): ChangeOwner | undefined {
  if ((typeof o !== 'object' && typeof o !== 'function') || o === null) return undefined;
  return cellOwner(o) ?? copyOwner(o);
}

const { defineProperty, defineProperties, setPrototypeOf, freeze, seal, preventExtensions, isExtensible, getPrototypeOf, hasOwn, isFrozen } = Object;
const reflect = { defineProperty: Reflect.defineProperty, setPrototypeOf: Reflect.setPrototypeOf, deleteProperty: Reflect.deleteProperty, preventExtensions: Reflect.preventExtensions };

/** Refuses, through `owner`, the definition of `key` as `desc` on `o` unless it changes nothing (a frozen copy's own field defined as it is). */
function refuseDefine(owner: ChangeOwner, o: object, key: PropertyKey, desc: PropertyDescriptor, from: Function): void {
  if (!(isFrozen(o) && reflect.defineProperty(o, key, desc))) refuse(owner, `it defined its ${keyText(key)}`, from);
}

/** Refuses, through `owner`, setting the prototype of `o` to `proto`, unless it is its prototype already. */
function refuseProto(owner: ChangeOwner, o: object, proto: unknown, from: Function): void {
  if (getPrototypeOf(o) !== proto) refuse(owner, 'it set its prototype', from);
}

/** Refuses, through `owner`, making `o` non-extensible (`how`: froze, sealed), unless it is already. */
function refuseFreeze(owner: ChangeOwner, o: object, how: string, from: Function): void {
  if (isExtensible(o)) refuse(owner, `it ${how} it`, from);
}

/** The replacements, each named and of the length of the built-in it stands for. */
const GUARDED = {
  defineProperty<T>(o: T, key: PropertyKey, desc: PropertyDescriptor & ThisType<unknown>): T {
    const owner = ownerOf(o);
    if (owner) refuseDefine(owner, o as object, key, desc, GUARDED.defineProperty);
    return defineProperty(o, key, desc);
  },
  defineProperties<T>(o: T, props: PropertyDescriptorMap & ThisType<unknown>): T {
    const owner = ownerOf(o);
    if (owner) for (const key of Reflect.ownKeys(props)) refuseDefine(owner, o as object, key, (props as Record<PropertyKey, PropertyDescriptor>)[key]!, GUARDED.defineProperties);
    return defineProperties(o, props);
  },
  setPrototypeOf(o: unknown, proto: object | null): unknown {
    const owner = ownerOf(o);
    if (owner) refuseProto(owner, o as object, proto, GUARDED.setPrototypeOf);
    return setPrototypeOf(o, proto);
  },
  freeze<T>(o: T): T {
    const owner = ownerOf(o);
    if (owner) refuseFreeze(owner, o as object, 'froze', GUARDED.freeze);
    return freeze(o);
  },
  seal<T>(o: T): T {
    const owner = ownerOf(o);
    if (owner) refuseFreeze(owner, o as object, 'sealed', GUARDED.seal);
    return seal(o);
  },
  preventExtensions<T>(o: T): T {
    const owner = ownerOf(o);
    if (owner) refuseFreeze(owner, o as object, 'made non-extensible', GUARDED.preventExtensions);
    return preventExtensions(o);
  },
};
const GUARDED_REFLECT = {
  defineProperty(o: object, key: PropertyKey, desc: PropertyDescriptor): boolean {
    const owner = ownerOf(o);
    if (owner) refuseDefine(owner, o, key, desc, GUARDED_REFLECT.defineProperty);
    return reflect.defineProperty(o, key, desc);
  },
  setPrototypeOf(o: object, proto: object | null): boolean {
    const owner = ownerOf(o);
    if (owner) refuseProto(owner, o, proto, GUARDED_REFLECT.setPrototypeOf);
    return reflect.setPrototypeOf(o, proto);
  },
  deleteProperty(o: object, key: PropertyKey): boolean {
    const owner = ownerOf(o);
    if (owner && hasOwn(o, key)) refuse(owner, `it deleted its ${keyText(key)}`, GUARDED_REFLECT.deleteProperty);
    return reflect.deleteProperty(o, key);
  },
  preventExtensions(o: object): boolean {
    const owner = ownerOf(o);
    if (owner) refuseFreeze(owner, o, 'made non-extensible', GUARDED_REFLECT.preventExtensions);
    return reflect.preventExtensions(o);
  },
};
const GUARDED_PROTO = {
  set __proto__(proto: object | null) {
    const owner = ownerOf(this);
    if (owner) refuseProto(owner, this, proto, PROTO_SETTER);
    protoBuiltin.set!.call(this, proto);
  },
};
const PROTO_SETTER = Object.getOwnPropertyDescriptor(GUARDED_PROTO, '__proto__')!.set!;

/** Each place a built-in is replaced: the object, the key, the built-in's descriptor and its replacement's. */
type Place = readonly [object, PropertyKey, PropertyDescriptor, PropertyDescriptor];

/** The places of `o` whose built-ins `replacements` replace, by key. */
function placesOf(o: object, replacements: Record<string, Function>): Place[] {
  return Object.entries(replacements).map(([key, value]) => {
    const builtin = Object.getOwnPropertyDescriptor(o, key)!;
    return [o, key, builtin, { ...builtin, value }];
  });
}

const protoBuiltin = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__')!;
const PLACES: readonly Place[] = [
  ...placesOf(Object, GUARDED),
  ...placesOf(Reflect, GUARDED_REFLECT),
  [Object.prototype, '__proto__', protoBuiltin, { ...protoBuiltin, set: PROTO_SETTER }],
];

/** Whether the built-ins are replaced (for good: see the module's note). */
let guarded = false;

/** @internal An observation gives out input copies: the built-ins refuse a change to one from now on. */
export function guardInputs(): void {
  if (guarded) return;
  guarded = true;
  for (const [o, key, , replacement] of PLACES) defineProperty(o, key, replacement);
}
