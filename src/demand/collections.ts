/**
 * Sets and maps: strict containers with a constructor per size, whose elements (a map's entries)
 * a layer lists in a canonical order; and the keys that name a layer's fields in a path.
 * @module
 */
import { isOpaque } from './opaque.ts';
import { isMap, isSet } from './realm.ts';
import { mismatch, shortened } from './shape-errors.ts';
import type { Collection, Ctor, Layer, Shape } from './shape-types.ts';

const collectionCtors = { set: [] as Ctor[], map: [] as Ctor[] };

/** The constructor of sets of `n` elements (fields: the elements in insertion order). */
export function setCtor(n: number): Ctor {
  return (collectionCtors.set[n] ??= {
    name: 'Set',
    keys: Array.from({ length: n }, (_, i) => i),
    style: 'set',
    build: (f) => new Set(f),
  });
}

/** The constructor of maps of `n` entries (fields: key, value, key, value, … in insertion order). */
export function mapCtor(n: number): Ctor {
  return (collectionCtors.map[n] ??= {
    name: 'Map',
    keys: Array.from({ length: 2 * n }, (_, i) => i),
    style: 'map',
    build: (f) => {
      const m = new Map();
      for (let i = 0; i + 1 < f.length; i += 2) m.set(f[i], f[i + 1]);
      return m;
    },
  });
}

/**
 * The layer of set (`set`) or map `v`: its elements, or its keys and values in turn; `shapes(n)` gives the
 * shapes of its `n` fields. Its elements (a map's entries, by key) are in canonical order, so that
 * two sets that differ only in insertion order have the same demands: the primitives sorted (see
 * {@link comparePrimitives}), values of an opaque `keyShape` by their text, then the other
 * elements, which have no order but their insertion's.
 */
export function collectionLayer(v: ReadonlySet<unknown> | ReadonlyMap<unknown, unknown>, set: boolean, collection: Collection | undefined, shapes: (n: number) => readonly Shape<unknown>[]): Layer {
  const ctor = set ? setCtor(v.size) : mapCtor(v.size);
  const keyShape = collection && (collection.kind === 'set' ? collection.elem : collection.key);
  const entries: unknown[] = [...v];
  const keys = set ? entries : entries.map((e) => (e as [unknown, unknown])[0]);
  const sortKeys = keyShape !== undefined && isOpaque(keyShape) ? keys.map((k) => opaqueSortKey(keyShape, k)) : keys;
  const order = keys.map((_, i) => i).sort((i, j) => comparePrimitives(sortKeys[i], sortKeys[j]));
  if (order.every((i, j) => i === j)) {
    const fields = set ? entries : entries.flat();
    return { ctor, fields, shapes: shapes(fields.length) };
  }
  const fields = set ? order.map((i) => entries[i]) : order.flatMap((i) => entries[i] as [unknown, unknown]);
  return { ctor, fields, shapes: shapes(fields.length), order };
}

/** An opaque value sorts by its text (see {@link opaque}); one that does not fit its shape stays where it is, and is refused where it is read. */
function opaqueSortKey(shape: Shape<unknown>, value: unknown): unknown {
  try {
    return shape.project(value, null).ctor.show!(value);
  } catch {
    return value;
  }
}

/** The key that names field `i` of `layer` in a path: see {@link fieldKeyOf}. */
export function fieldKey(layer: Layer, i: number): PropertyKey {
  // Only a map's value reads the field before it, its key: a tuple's fields are its array, and reading an element again could run a getter.
  return fieldKeyOf(layer.ctor, i, layer.order, layer.ctor.style === 'map' && i % 2 === 1 ? layer.fields[i - 1] : undefined);
}

/**
 * @internal The key that names field `i` of a layer with constructor `ctor` in a path, `key`
 * being, for a map's value, its key (field `i - 1`): `ctor.keys[i]`, but an element of a set or a
 * map by where it is in the value, not in the layer, which lists its elements (a map's entries) in
 * canonical order, `order` (see {@link Layer.order}). A set's element is named by its position in
 * the set's own order (`s.2`, what `[...s][2]` is); a map's key likewise (`m.keys.2`); a map's
 * value by its key, where that is a primitive other than a symbol (`m.get("a")`), else by
 * position (`m.values.2`).
 */
export function fieldKeyOf(ctor: Ctor, i: number, order: readonly number[] | undefined, key: unknown): PropertyKey {
  const { style } = ctor;
  if (style !== 'set' && style !== 'map') return ctor.keys[i]!;
  const entry = style === 'set' ? i : i >> 1;
  const own = order === undefined ? entry : order[entry]!;
  if (style === 'set') return own;
  if (i % 2 === 0) return `keys.${own}`;
  switch (typeof key) {
    case 'string':
      return `get(${JSON.stringify(shortened(key))})`;
    case 'bigint':
      return `get(${key}n)`;
    case 'number':
    case 'boolean':
    case 'undefined':
      return `get(${String(key)})`;
    default:
      return `values.${own}`;
  }
}

/** The position in the value of field `i` of `layer`: `i`, unless the layer lists its fields in another order (see {@link Layer.order}). */
function ownPosition(layer: Layer, i: number): number {
  const { order } = layer;
  if (order === undefined) return i;
  // A map's entries are two fields each.
  const width = layer.fields.length / order.length;
  return order[Math.floor(i / width)]! * width + (i % width);
}

/** `fields`, one for each field of `layer` in its order (their copies, say), in the order of the value. */
export function inOwnOrder<T>(layer: Layer, fields: readonly T[]): readonly T[] {
  if (layer.order === undefined) return fields;
  const own = new Array<T>(fields.length);
  for (let i = 0; i < fields.length; i++) own[ownPosition(layer, i)] = fields[i]!;
  return own;
}

const PRIM_RANKS: Partial<Record<string, number>> = { undefined: 0, boolean: 1, number: 2, bigint: 3, string: 4 };
const UNORDERED = 5;

/**
 * The canonical order of set elements and map keys: primitives by kind (unit, booleans, numbers,
 * bigints, strings), then by value (`NaN` last of the numbers); anything else after them, unordered.
 */
function comparePrimitives(a: unknown, b: unknown): number {
  const ra = PRIM_RANKS[typeof a] ?? UNORDERED;
  const rb = PRIM_RANKS[typeof b] ?? UNORDERED;
  if (ra !== rb || ra === UNORDERED) return ra - rb;
  const x = a as number;
  const y = b as number;
  return x < y ? -1 : x > y ? 1 : Number(x !== x) - Number(y !== y);
}

/** @internal The shapes of the `n` fields of a layer of collection `c`: a set's elements, a map's keys and values in turn. */
export function collectionShapes(c: Collection, n: number): Shape<unknown>[] {
  const out: Shape<unknown>[] = [];
  for (let i = 0; i < n; i++) out.push(c.kind === 'set' ? c.elem : i % 2 === 0 ? c.key : c.value);
  return out;
}

/**
 * Sets (`ReadonlySet`) of elements of shape `elem`: strict, one layer whose fields are the elements.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(new Set([1, 2]), setOf(number))); // 'Set {1, 2}'
 * ```
 */
export function setOf<T>(elem: Shape<T>): Shape<ReadonlySet<T>> {
  const collection: Collection = { kind: 'set', elem: elem as Shape<unknown> };
  return {
    kind: 'data',
    name: `Set<${elem.name}>`,
    alternatives: () => [],
    collection,
    project(value, path) {
      if (!isSet(value)) mismatch(path, `a Set of ${elem.name}`, value);
      return collectionLayer(value, true, collection, (n) => collectionShapes(collection, n));
    },
  };
}

/**
 * Maps (`ReadonlyMap`) from `key` to `value` shapes: strict, one layer whose fields are the keys and values in turn.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(new Map([['a', 1]]), mapOf(string, number))); // 'Map {"a" => 1}'
 * ```
 */
export function mapOf<K, V>(key: Shape<K>, value: Shape<V>): Shape<ReadonlyMap<K, V>> {
  const collection: Collection = { kind: 'map', key: key as Shape<unknown>, value: value as Shape<unknown> };
  return {
    kind: 'data',
    name: `Map<${key.name}, ${value.name}>`,
    alternatives: () => [],
    collection,
    project(v, path) {
      if (!isMap(v)) mismatch(path, `a Map from ${key.name} to ${value.name}`, v);
      return collectionLayer(v, false, collection, (n) => collectionShapes(collection, n));
    },
  };
}
