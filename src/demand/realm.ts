/**
 * Telling built-in objects (plain objects, arrays, sets, maps) of this realm or of another (a vm
 * context's, as test runners such as jest make them), read without running a getter.
 * @module
 */
import { types } from 'node:util';
import { isRefusingPrototype } from './input-copy.ts';

/** The value of `o`'s own data property `key`, read without running a getter: `undefined` if it has none. */
export function ownValue(o: object, key: PropertyKey): unknown {
  return Object.getOwnPropertyDescriptor(o, key)?.value;
}

const OWN_PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Set: Set.prototype, Map: Map.prototype };

/**
 * Whether `p` is the prototype of built-in `name` (`Object.prototype`, `Array.prototype`, …) of
 * this realm or of another: a value made in a vm context (as test runners such as jest make
 * them) has that context's. Told by its constructor, read without running a getter.
 */
export function isBuiltinPrototype(p: object | null, name: keyof typeof OWN_PROTOTYPES): boolean {
  if (p === null) return false;
  if (p === OWN_PROTOTYPES[name]) return true;
  // A Set or a Map that an observed function was given is built-in data all the same.
  if ((name === 'Set' || name === 'Map') && isRefusingPrototype(p, name)) return true;
  const c = ownValue(p, 'constructor');
  if (typeof c !== 'function' || ownValue(c, 'name') !== name || ownValue(c, 'prototype') !== p) return false;
  const above = Object.getPrototypeOf(p) as object | null;
  return name === 'Object' ? above === null : isBuiltinPrototype(above, 'Object');
}

/** Whether `v` is a Set, of this realm or of another (`instanceof` tells only this realm's). */
export function isSet(v: unknown): v is ReadonlySet<unknown> {
  return v instanceof Set || types.isSet(v);
}

/** Whether `v` is a Map, of this realm or of another. */
export function isMap(v: unknown): v is ReadonlyMap<unknown, unknown> {
  return v instanceof Map || types.isMap(v);
}
