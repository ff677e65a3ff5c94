/**
 * Dynamic shapes: a value's structure read from its run-time form.
 * @module
 */
import { inspect } from 'node:util';
import { Cons, Nil } from '../lazy/cell.ts';
import { collectionLayer } from './collections.ts';
import { CTOR } from './data-mark.ts';
import { keyText } from './key-text.ts';
import { CONS_CTOR, NIL_CTOR, otherEnd } from './lazy-positions.ts';
import { child, showPath, type Path } from './path.ts';
import { bigint, boolean, FN_CTOR, number, string, SYMBOL_CTOR, unit } from './primitives.ts';
import { isBuiltinPrototype, isMap, isSet } from './realm.ts';
import { plainCtor } from './records.ts';
import { describeValue, mismatch, ShapeMismatchError } from './shape-errors.ts';
import { NO_FIELDS, NO_SHAPES, type Ctor, type Layer, type Shape } from './shape-types.ts';
import { tupleCtor } from './tuples.ts';

/**
 * The shape of "whatever the value is": list cells, declared data values, tuples (arrays),
 * records (plain objects), sets, maps, functions and primitives (symbols too, as atoms) are
 * recognised at run time, and a `Lazy` anywhere is a lazy position. `observe` uses it when no
 * shape is given. Plain objects, arrays, sets and maps of another realm (a vm context's, as test
 * runners such as jest make them) are read as this realm's.
 *
 * It reads only what a copy can hold as it is: observing must not change what the function
 * computes, and two different values must not have the same demand. An object's fields are all
 * its own properties, symbol-keyed or not enumerable too, read from their descriptors: a getter
 * or a setter is refused, not run. Its copy has them with the same attributes, and is as
 * extensible (frozen, sealed) as it; so is an array's. Refused with a {@link ShapeMismatchError}
 * naming where, as anything else is: an instance of a class (a `Date`, a `Promise` too), which a
 * copy would not be, nor hold the state it keeps outside its own properties; an array with a hole
 * or a property besides its elements; a Set or a Map with a property of its own. A declared shape
 * reads such a value as it says (`data`, `record`, `tuple`, `setOf`).
 */
export const dynamic: Shape<unknown> = {
  kind: 'dynamic',
  name: 'unknown',
  project(value, path): Layer {
    switch (typeof value) {
      case 'number':
      case 'string':
      case 'boolean':
      case 'bigint':
        return PRIMS[typeof value]!.project(value, path);
      case 'undefined':
        return unit.project(value, path);
      case 'symbol':
        return { ctor: SYMBOL_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES, value };
      case 'function':
        return { ctor: FN_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    }
    if (value instanceof Cons) return { ctor: CONS_CTOR, fields: [value.head, value.tail], shapes: DYN2 };
    if (value instanceof Nil) return endLayer(value, path);
    if (value === null) return mismatch(path, 'a value strictcheck can observe', value);
    const declared = (value as { [CTOR]?: { ctor: Ctor } })[CTOR];
    if (declared) {
      const ctor = declared.ctor;
      return { ctor, fields: ctor.keys.map((k) => (value as Record<PropertyKey, unknown>)[k]), shapes: dyn(ctor.keys.length) };
    }
    const obj = value as object;
    const proto = Object.getPrototypeOf(obj) as object | null;
    // This realm's plain objects first: the common case.
    if (proto === Object.prototype || proto === null) return plainLayer(obj, proto, path);
    switch (dataKind(obj, proto)) {
      case 'array':
        return tupleLayer(obj as readonly unknown[], path);
      case 'set':
        return collectionOf(obj as ReadonlySet<unknown>, true, path);
      case 'map':
        return collectionOf(obj as ReadonlyMap<unknown, unknown>, false, path);
      case 'object':
        return plainLayer(obj, Object.prototype, path);
      default:
        return notPlain(path, obj);
    }
  },
};

/** The layer of `end`, the end of a list: `[]`, or another end as it says (see {@link otherEnd}). */
function endLayer(end: Nil, path: Path): Layer {
  const other = otherEnd(end);
  if (other === undefined) return { ctor: NIL_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES };
  if (other.refused !== undefined) throw new ShapeMismatchError(showPath(path), 'the end of a list ([]) or of an iteration (return(), throw(), ⊥)', end, other.refused);
  return { ctor: other.ctor, fields: NO_FIELDS, shapes: NO_SHAPES };
}

/** What kind of plain data the dynamic shape reads `obj` (whose prototype is `proto`) as, or `undefined` for an instance of a class, which it refuses. */
function dataKind(obj: object, proto: object | null): 'array' | 'set' | 'map' | 'object' | undefined {
  if (Array.isArray(obj)) return isBuiltinPrototype(proto, 'Array') ? 'array' : undefined;
  const set = isSet(obj);
  if (set || isMap(obj)) return isBuiltinPrototype(proto, set ? 'Set' : 'Map') ? (set ? 'set' : 'map') : undefined;
  return proto === null || isBuiltinPrototype(proto, 'Object') ? 'object' : undefined;
}

/**
 * @internal Whether the dynamic shape takes `obj` apart, rather than refuse it as an instance of a
 * class (a Date, a generator): told without building the refusal, for walks that only count what
 * a value holds and pass over what they cannot take apart.
 */
export function isDataObject(obj: object): boolean {
  return (obj as { [CTOR]?: unknown })[CTOR] !== undefined || obj instanceof Cons || obj instanceof Nil || dataKind(obj, Object.getPrototypeOf(obj) as object | null) !== undefined;
}

/**
 * @internal The dynamic shape, reading what it cannot take apart (a Date, a class instance) as an
 * atom named as Node prints it: for walks that only force or print a value, which need not copy it
 * (printing, a context called on a value directly, a generated function reading its argument).
 */
export const lenient: Shape<unknown> = {
  ...dynamic,
  project(value, path) {
    try {
      const layer = dynamic.project(value, path);
      // dynamic's fields are all dynamic: here they are all lenient.
      return layer.fields.length === 0 ? layer : { ...layer, shapes: repeated(lenient, layer.fields.length) };
    } catch (err) {
      if (!(err instanceof ShapeMismatchError)) throw err;
      return { ctor: { name: inspect(value, { breakLength: Infinity, depth: 1 }), keys: [], style: 'atom', build: () => value }, fields: NO_FIELDS, shapes: NO_SHAPES };
    }
  },
};

/** Refuses `v`, an object that is not plain data (see {@link dynamic}). */
function notPlain(path: Path, v: object): never {
  return mismatch(
    path,
    'plain data, which the dynamic shape reads and copies as it is: a primitive, a function, a list, a plain object, an array, a Set, a Map or a value of a declared data type (a copy of this object would not be of its class, nor hold the state it keeps outside its own properties: declare the shape to read it as: `opaque` for an atom such as a Date, `data` or `record` for its fields; or pass plain data)',
    v,
  );
}

/**
 * The layer of plain object `obj`, whose copies have prototype `proto`: its own properties, read
 * from their descriptors (see {@link dynamic}); a string `tag` names its constructor, any other is
 * a field like the rest. An object whose properties are all keyed by strings and enumerable, and
 * as writable and configurable as an object extensible, not extensible, sealed or frozen has
 * (all of them) is read with a constructor shared with its like; any other with one of its own
 * (see {@link exactLayer}).
 */
function plainLayer(obj: object, proto: object | null, path: Path): Layer {
  const names = Object.getOwnPropertyNames(obj);
  const n = names.length;
  const fields: unknown[] = new Array(n);
  let enumerable = Object.getOwnPropertySymbols(obj).length === 0;
  let writable = 0;
  let configurable = 0;
  let tag: string | undefined;
  for (let i = 0; i < n; i++) {
    const d = ownData(obj, names[i]!, path);
    if (!d.enumerable) enumerable = false;
    if (d.writable) writable++;
    if (d.configurable) configurable++;
    if (names[i] === 'tag' && typeof d.value === 'string') tag = d.value;
    fields[i] = d.value;
  }
  const lock = lockOf(n, enumerable, writable, configurable, Object.isExtensible(obj));
  if (lock === undefined) return exactLayer(obj, proto, tag, path);
  if (tag !== undefined) {
    const at = names.indexOf('tag');
    names.splice(at, 1);
    fields.splice(at, 1);
  }
  const ctor = plainCtor(tag, names, proto);
  return { ctor: lock === null ? ctor : locked(ctor, lock), fields, shapes: dyn(names.length) };
}

/**
 * How a copy of an object is locked to have the attributes of its `n` own properties (all
 * `enumerable`, `writable` and `configurable` of them) and its extensibility: `null`, not at all;
 * `undefined` if no lock gives them (see {@link exactLayer}).
 */
function lockOf(n: number, enumerable: boolean, writable: number, configurable: number, extensible: boolean): keyof typeof LOCKS | null | undefined {
  if (!enumerable) return undefined;
  if (writable === n && configurable === n) return extensible ? null : 'preventExtensions';
  if (extensible || configurable > 0) return undefined;
  return writable === n ? 'seal' : writable === 0 ? 'freeze' : undefined;
}

/** The descriptor of data property `key` of `obj`; a getter or a setter is refused (the dynamic shape runs no code of a value's). */
function ownData(obj: object, key: PropertyKey, path: Path): PropertyDescriptor {
  const d = Object.getOwnPropertyDescriptor(obj, key)!;
  if (d.writable !== undefined) return d;
  const found = d.get ? (d.set ? 'a getter and a setter' : 'a getter') : 'a setter';
  const why = 'the dynamic shape reads and copies an object by its properties, and runs none of its code: declare its shape with `record`, which reads only the fields it names';
  throw new ShapeMismatchError(showPath(child(path, key)), `a data property (${why})`, d, found);
}

/**
 * The layer of a plain object whose properties are not all plain (see {@link plainLayer}), with a
 * constructor of its own, not shared: its copies have its own properties in the same order with
 * the same attributes, and are as extensible as it.
 */
function exactLayer(obj: object, proto: object | null, tag: string | undefined, path: Path): Layer {
  const own = Reflect.ownKeys(obj);
  const tagAt = tag === undefined ? -1 : own.indexOf('tag');
  const keys: PropertyKey[] = [];
  const fields: unknown[] = [];
  // The attributes only: a demand holds its constructor, and must not keep the value alive.
  const attributes = own.map((k, i) => {
    const { value, ...rest } = ownData(obj, k, path);
    if (i !== tagAt) keys.push(k), fields.push(value);
    return rest;
  });
  const extensible = Object.isExtensible(obj);
  const ctor: Ctor = {
    name: tag ?? `{${keys.map(keyText).join(', ')}}`,
    keys,
    style: tag === undefined ? 'record' : 'data',
    build(f) {
      const copy = Object.create(proto) as object;
      for (let i = 0, j = 0; i < own.length; i++) Object.defineProperty(copy, own[i]!, { ...attributes[i], value: i === tagAt ? tag : f[j++] });
      if (!extensible) Object.preventExtensions(copy);
      return copy;
    },
  };
  return { ctor, fields, shapes: dyn(keys.length) };
}

/**
 * The layer of array `a`, the tuple of its elements: refused if it has a hole or a property
 * besides them (see {@link dynamic}). Not checked, as that would cost a descriptor per element:
 * a getter on an element, and a property that is not enumerable.
 */
function tupleLayer(a: readonly unknown[], path: Path): Layer {
  const n = a.length;
  const keys = Object.keys(a);
  if (keys.length !== n || (n > 0 && keys[n - 1] !== String(n - 1)) || Object.getOwnPropertySymbols(a).length > 0) notATuple(a, path);
  const ctor = Object.isExtensible(a) ? tupleCtor(n) : locked(tupleCtor(n), Object.isFrozen(a) ? 'freeze' : Object.isSealed(a) ? 'seal' : 'preventExtensions');
  return { ctor, fields: a, shapes: dyn(n) };
}

/** Refuses array `a`, which has a hole or a property besides its elements, naming it. */
function notATuple(a: readonly unknown[], path: Path): never {
  for (let i = 0; i < a.length; i++) {
    if (Object.prototype.propertyIsEnumerable.call(a, i)) continue;
    const why = 'the dynamic shape reads an array as the tuple of its elements, whose copy has each of them, enumerable: declare its shape with `tuple` to read it so';
    throw new ShapeMismatchError(showPath(child(path, i)), `an element (${why})`, undefined, Object.hasOwn(a, i) ? 'an element that is not enumerable' : 'a hole');
  }
  return extraProperty(a, Reflect.ownKeys(a).find((k) => k !== 'length' && !/^(?:0|[1-9]\d*)$/.test(String(k)))!, 'an array as the tuple of its elements', 'tuple', path);
}

/** Refuses `v`, read as `reads` (its elements), for its property `key`, which a copy would not have. */
function extraProperty(v: object, key: PropertyKey, reads: string, shape: string, path: Path): never {
  const d = Object.getOwnPropertyDescriptor(v, key)!;
  const why = `the dynamic shape reads ${reads}, and a copy would not have this property: declare its shape with \`${shape}\`, which copies only those`;
  throw new ShapeMismatchError(showPath(child(path, key)), `no property here (${why})`, d.value, d.writable === undefined ? 'an accessor' : describeValue(d.value));
}

/** The layer of set (`set`) or map `v`, refused if it has a property of its own (see {@link dynamic}). */
function collectionOf(v: ReadonlySet<unknown> | ReadonlyMap<unknown, unknown>, set: boolean, path: Path): Layer {
  const own = Reflect.ownKeys(v);
  if (own.length > 0) extraProperty(v, own[0]!, set ? 'a Set as its elements' : 'a Map as its entries', set ? 'setOf' : 'mapOf', path);
  return collectionLayer(v, set, undefined, dyn);
}

const LOCKS: Record<'freeze' | 'seal' | 'preventExtensions', (o: unknown) => unknown> = { freeze: Object.freeze, seal: Object.seal, preventExtensions: Object.preventExtensions };
const lockedCtors = new WeakMap<Ctor, Partial<Record<keyof typeof LOCKS, Ctor>>>();
/** `ctor` (one shared), whose copies are frozen, sealed or not extensible (`lock`), as the originals are. */
function locked(ctor: Ctor, lock: keyof typeof LOCKS): Ctor {
  let byLock = lockedCtors.get(ctor);
  if (!byLock) lockedCtors.set(ctor, (byLock = {}));
  return (byLock[lock] ??= { ...ctor, build: (f, value) => LOCKS[lock](ctor.build(f, value)) });
}

const PRIMS: Record<string, Shape<unknown>> = { number, string, boolean, bigint } as Record<string, Shape<unknown>>;
const repeats = new Map<Shape<unknown>, Shape<unknown>[][]>();
/** @internal The shapes of a list cell's head and tail under the dynamic shape (those of any two-field layer under it). */
export const DYN2: readonly Shape<unknown>[] = repeated(dynamic, 2);
/** `n` times shape `s`: the shapes of a layer's fields, one array per (s, n). */
function repeated(s: Shape<unknown>, n: number): readonly Shape<unknown>[] {
  let byCount = repeats.get(s);
  if (!byCount) repeats.set(s, (byCount = []));
  return (byCount[n] ??= Array.from({ length: n }, () => s));
}
function dyn(n: number): readonly Shape<unknown>[] {
  return repeated(dynamic, n);
}
