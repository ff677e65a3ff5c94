/**
 * Shapes: run-time descriptions of a type's structure, the TypeScript analogue of `Shaped`.
 *
 * TypeScript erases types, so a shape is a value. A shape projects a value into one layer (a
 * constructor and its fields) and embeds a layer back into a value; every lazy field is a
 * {@link lazyOf} shape, where a demand can say "not evaluated". Observation, printing, demand
 * conversion, random generation, shrinking and enumeration are all derived from shapes.
 * @module
 */
import { inspect, types } from 'node:util';
import type { Arbitrary } from 'fast-check';
import { Lazy } from '../lazy/lazy.ts';
import { Cons, Nil, NIL, type Cell, type List } from '../lazy/cell.ts';
import { describeSafely } from './describe.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** How a constructor prints: a primitive, a function, a tuple, a record, a named constructor, a list cell, or a bare atom. */
export type CtorStyle = 'prim' | 'fn' | 'tuple' | 'record' | 'data' | 'cons' | 'nil' | 'atom' | 'set' | 'map';

/** One constructor of a type: its name, field keys, how it prints, and how to rebuild a value from fields (embedding). */
export interface Ctor {
  /** As printed: `Node`, `Some`, `:` for a list cell, `number` for a primitive. */
  readonly name: string;
  /** The keys of the fields, in order: names for records and data, indices for tuples. */
  readonly keys: readonly PropertyKey[];
  /** How a layer with this constructor prints. */
  readonly style: CtorStyle;
  /** For a constructor of a declared data type, the type's identity (its name, and a number for a name declared again): demands on two types are not equal, even where constructor names are alike. */
  readonly type?: string | undefined;
  /** Embeds: rebuilds a value from its fields (for primitives and functions, returns the stored value). */
  build(fields: readonly unknown[], value?: unknown): unknown;
  /** For the constructor of an {@link opaque} shape: when two of its values are the same in a demand (without it, `Object.is`). */
  readonly equals?: (a: unknown, b: unknown) => boolean;
  /** For the constructor of an {@link opaque} shape: how one of its values prints. */
  readonly show?: (value: unknown) => string;
  /** For an event that ends an iteration at the consumer's will (`return()`, `throw()`): it is less defined than anything found at its place, as closing earlier is (see `lessDefined`). */
  readonly closes?: boolean;
}

/** One layer of a value: its constructor, its fields in order, their shapes, and for primitives the value itself. */
export interface Layer {
  /** The constructor of the layer. */
  readonly ctor: Ctor;
  /** Its fields, in the order of `ctor.keys`: a lazy field as its `Lazy`. */
  readonly fields: readonly unknown[];
  /** The shape of each field. */
  readonly shapes: readonly Shape<unknown>[];
  /** For a primitive or a function, the value itself. */
  readonly value?: unknown;
  /**
   * For a set or a map whose elements (a map's entries) the layer lists in another order than the
   * value's own: the position in the value of each element of the layer, so that a copy iterates
   * as the value does, and a path names an element by where it is in the value.
   */
  readonly order?: readonly number[];
}

/** An alternative of a data shape, for generation: a constructor with the shapes of its fields. */
export interface Alternative {
  /** The constructor. */
  readonly ctor: Ctor;
  /** The shapes of its fields, in order. */
  readonly shapes: readonly Shape<unknown>[];
}

/** Kinds of primitive; `opaque` is an object read as an atom (see {@link opaque}). */
export type PrimKind = 'number' | 'string' | 'boolean' | 'bigint' | 'unit' | 'opaque';

/** The part of a shape that each kind carries. */
export type ShapeInfo =
  | {
      /** A primitive: its values have no fields. */
      readonly kind: 'prim';
      /** Which primitive. */
      readonly prim: PrimKind;
    }
  | {
      /** A lazy position, where a demand can say "not evaluated". */
      readonly kind: 'lazy';
      /** The shape of the value inside the `Lazy` (a function, so that recursive shapes can refer to themselves). */
      readonly inner: () => Shape<unknown>;
    }
  | {
      /** Data: tuples, records, list cells, declared data types, sets and maps. */
      readonly kind: 'data';
      /** The constructors and their field shapes, for generation (empty for sets and maps). */
      readonly alternatives: () => readonly Alternative[];
      /** For sets and maps, which have a constructor per size instead of alternatives: their element shapes. */
      readonly collection?: Collection;
    }
  | {
      /** A function, opaque to demands. */
      readonly kind: 'fn';
      /** The shapes of its arguments. */
      readonly args: readonly Shape<unknown>[];
      /** The shape of its result. */
      readonly result: Shape<unknown>;
    }
  | {
      /** {@link dynamic}: the structure is read from each value at run time. */
      readonly kind: 'dynamic';
    };

/**
 * The shape of values of type `T`: {@link ShapeInfo} for the derived operations, `project` and
 * `name`. Build shapes with the combinators of this module ({@link number}, {@link list},
 * {@link tuple}, {@link data}, …).
 */
export type Shape<T> = ShapeInfo & {
  /** The type's name, as printed in messages: `number`, `List<number>`, `Tree`. */
  readonly name: string;
  /** Projects one layer of `value`; throws {@link ShapeMismatchError} if `value` is not of this shape. */
  project(value: unknown, path: Path): Layer;
  /** A fast-check arbitrary that generates and shrinks this argument instead of the shape's own generator (see `withArbitrary`). */
  readonly arbitrary?: Arbitrary<T>;
  /** @internal For a shape whose values are reached through a protocol, not taken apart (iterables: `src/iter`): see {@link Protocol}. */
  readonly protocol?: Protocol;
  /** Phantom: the type described. */
  readonly __type?: (x: T) => T;
};

/**
 * @internal How the values of a shape that are not data but a protocol (iterables, `src/iter`)
 * take part in the walks: such a shape is a lazy position whose value form (its demand's) is
 * data, while its values are iterated. `into` and `at` are where the demand is recorded (a node
 * being built, or a position in a spine, as `put` in `record.ts` takes them).
 */
export interface Protocol {
  /** Whether its values are observed only asynchronously (async iterables): then a check of a spec holding the shape is asynchronous. */
  readonly async?: boolean;
  /** The instrumented copy of `value`, which records its demand while `rec` is open. */
  instrument(value: unknown, path: Path, into: object, at: number, rec: { readonly open: boolean }): unknown;
  /** Consumes `value` as `guide` (a walk's `Guide`) says and records its demand; `false` for a guide that only reads what is evaluated, which a protocol's value cannot tell. */
  consume(value: unknown, path: Path, guide: unknown, into: object, at: number, fit: boolean): boolean;
  /** Consumes `value` as a random context of size `size` does, and records its demand. */
  consumeRandomly(value: unknown, path: Path, random: { int(lo: number, hi: number): number }, size: number, into: object, at: number): void;
  /** A random value of size `size`, `generate` making the values of other shapes. */
  generate(random: { int(lo: number, hi: number): number }, size: number, generate: (s: Shape<unknown>, size: number) => unknown): unknown;
  /** Smaller values than `value`, `shrink` giving those of a value of another shape. */
  shrink(value: unknown, shrink: (v: unknown, s: Shape<unknown>) => Iterable<unknown>): Iterable<unknown>;
}

/** The type a shape describes. */
export type TypeOf<S> = S extends Shape<infer T> ? T : never;

/** A path from an argument to a position inside it, for error messages (built only when needed). */
export type Path =
  | {
      /** The path to the value holding this position. */
      readonly parent: Path;
      /** The key of the position in that value, e.g. `tail` or `0`. */
      readonly key: PropertyKey;
      /** How many times `key` repeats (default 1): one object for the path to the k-th cell of a list. */
      readonly times?: number;
    }
  | null
  | string;

/**
 * @internal The shapes a value of shape `s` holds one layer down: a lazy position's inner shape,
 * the fields of every alternative of data, the elements (keys, values) of a set or a map.
 */
export function shapesInside(s: Shape<unknown>): readonly Shape<unknown>[] {
  if (s.kind === 'lazy') return [s.inner()];
  if (s.kind !== 'data') return [];
  const c = s.collection;
  if (c) return c.kind === 'set' ? [c.elem] : [c.key, c.value];
  return s.alternatives().flatMap((a) => a.shapes);
}

/**
 * @internal Whether `test` holds for `from` or for a shape it holds at any depth (a recursive
 * shape is walked once), not looking inside the shapes `enter` refuses; `inside` gives the shapes
 * one level down (default {@link shapesInside}).
 */
export function someShapeWithin(
  from: Shape<unknown>,
  test: (s: Shape<unknown>) => boolean,
  enter: (s: Shape<unknown>) => boolean = () => true,
  inside: (s: Shape<unknown>) => readonly Shape<unknown>[] = shapesInside,
): boolean {
  const seen = new Set<Shape<unknown>>();
  for (const stack = [from]; stack.length > 0; ) {
    const s = stack.pop()!;
    if (test(s)) return true;
    if (seen.has(s) || !enter(s)) continue;
    seen.add(s);
    stack.push(...inside(s));
  }
  return false;
}

/** @internal `compute`, computed once for each shape (held weakly): for what depends on a shape alone. */
export function perShape<V extends {} | null>(compute: (s: Shape<unknown>) => V): (s: Shape<unknown>) => V {
  const cache = new WeakMap<Shape<unknown>, V>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) cache.set(s, (v = compute(s)));
    return v;
  };
}

/**
 * Renders a path like `xs.tail.tail.head`. A key repeated more than 8 times in a
 * row is written once with its count (`xs.tail×100000.head`), so that a message about the
 * 100,000th cell of a list stays short.
 *
 * @example
 * ```ts
 * showPath({ parent: { parent: 'xs', key: 'tail', times: 2 }, key: 'head' }); // 'xs.tail.tail.head'
 * showPath({ parent: { parent: 'xs', key: 'tail', times: 9 }, key: 'head' }); // 'xs.tail×9.head'
 * ```
 */
export function showPath(path: Path): string {
  // Runs of equal keys, innermost first: [key, count, key, count, …].
  const runs: (string | number)[] = [];
  let p = path;
  for (; p !== null && typeof p !== 'string'; p = p.parent) {
    const key = String(p.key);
    if (runs.length > 0 && runs[runs.length - 2] === key) (runs[runs.length - 1] as number) += p.times ?? 1;
    else runs.push(key, p.times ?? 1);
  }
  const parts = [p ?? 'value'];
  for (let i = runs.length - 2; i >= 0; i -= 2) {
    const [key, count] = [runs[i] as string, runs[i + 1] as number];
    if (count > MAX_REPEATS) parts.push(`${key}×${count}`);
    else for (let k = 0; k < count; k++) parts.push(key);
  }
  return parts.join('.');
}

/** The longest run of one key that {@link showPath} writes out in full. */
const MAX_REPEATS = 8;

/** Appends a key to a path, `times` times (one object for the path to the k-th cell of a list). */
export function child(path: Path, key: PropertyKey, times = 1): Path {
  return times === 0 ? path : times === 1 ? { parent: path, key } : { parent: path, key, times };
}

/** Thrown when a value does not match its declared shape; names the path to the mismatch. */
export class ShapeMismatchError extends Error {
  /** Always `'ShapeMismatchError'`: the name logs show for a value that does not fit its shape. */
  override name = 'ShapeMismatchError';
  constructor(
    /** Where in the value, e.g. `argument 1.tail.head`. */
    readonly path: string,
    /** What the shape expected there, e.g. `number`. */
    readonly expected: string,
    /** What was there instead. */
    readonly actual: unknown,
    /** How the message names what was there, where its description cannot tell (a getter is not a value). */
    found = describeValue(actual),
  ) {
    super(`value does not match its shape at ${path}: expected ${expected}, got ${found}`);
  }
}

/** A short description of a value's run-time form, for messages (read without running a getter). */
function describeValue(v: unknown): string {
  if (v instanceof Lazy) return 'a Lazy';
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const proto = Object.getPrototypeOf(v) as object | null;
    return `an array of length ${v.length}${isBuiltinPrototype(proto, 'Array') ? '' : `, an instance of ${className(proto)}`}`;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) as object | null;
    if (proto !== null && !isBuiltinPrototype(proto, 'Object')) return `an instance of ${className(proto)}`;
    const tag = ownValue(v, 'tag');
    return typeof tag === 'string' ? `an object with tag '${tag}'` : 'an object';
  }
  if (typeof v === 'string') return `the string ${JSON.stringify(shortened(v))}`;
  return v === undefined ? 'undefined' : `${typeof v} ${String(v)}`;
}

/** `s`, cut after 20 characters, for messages. */
function shortened(s: string): string {
  return s.length > 20 ? s.slice(0, 20) + '…' : s;
}

/** The value of `o`'s own data property `key`, read without running a getter: `undefined` if it has none. */
function ownValue(o: object, key: PropertyKey): unknown {
  return Object.getOwnPropertyDescriptor(o, key)?.value;
}

/** The name of the class whose prototype is `proto`, for messages. */
function className(proto: object | null): string {
  const c = proto === null ? undefined : ownValue(proto, 'constructor');
  const name = typeof c === 'function' ? ownValue(c, 'name') : undefined;
  return typeof name === 'string' && name !== '' ? name : 'a class without a name';
}

const OWN_PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Set: Set.prototype, Map: Map.prototype };

/**
 * Whether `p` is the prototype of built-in `name` (`Object.prototype`, `Array.prototype`, …) of
 * this realm or of another: a value made in a vm context (as test runners such as jest make
 * them) has that context's. Told by its constructor, read without running a getter.
 */
function isBuiltinPrototype(p: object | null, name: keyof typeof OWN_PROTOTYPES): boolean {
  if (p === null) return false;
  if (p === OWN_PROTOTYPES[name]) return true;
  const c = ownValue(p, 'constructor');
  if (typeof c !== 'function' || ownValue(c, 'name') !== name || ownValue(c, 'prototype') !== p) return false;
  const above = Object.getPrototypeOf(p) as object | null;
  return name === 'Object' ? above === null : isBuiltinPrototype(above, 'Object');
}

/** Whether `v` is a Set, of this realm or of another (`instanceof` tells only this realm's). */
function isSet(v: unknown): v is ReadonlySet<unknown> {
  return v instanceof Set || types.isSet(v);
}

/** Whether `v` is a Map, of this realm or of another. */
function isMap(v: unknown): v is ReadonlyMap<unknown, unknown> {
  return v instanceof Map || types.isMap(v);
}

function mismatch(path: Path, expected: string, actual: unknown): never {
  throw new ShapeMismatchError(showPath(path), expected, actual);
}

/** Refuses object `o` at `path`, which lacks field `key` of `what` (a record's or a constructor's name): says which fields it has. */
function missingField(path: Path, key: PropertyKey, what: string, o: object): never {
  const field = typeof key === 'symbol' ? keyText(key) : `'${key}'`;
  const has = Object.keys(o).map(keyText).join(', ');
  throw new ShapeMismatchError(showPath(child(path, key)), `field ${field} of ${what}`, undefined, `nothing: the object has no field ${field} (its fields: ${has === '' ? 'none' : has})`);
}

const NO_SHAPES: readonly Shape<unknown>[] = [];
const NO_FIELDS: readonly unknown[] = [];

// ---------------------------------------------------------------------------------------------
// Primitives and functions

const PRIM_CTORS: Partial<Record<string, Ctor>> = {};

/** The constructor of the primitives whose `typeof` is `type` (`undefined` for unit). */
export function primitiveCtor(type: string): Ctor | undefined {
  return PRIM_CTORS[type];
}

/** The constructor named `name` of the primitives whose `typeof` is `type`: an atom that builds as its value. */
function primCtor(name: string, type: string): Ctor {
  return (PRIM_CTORS[type] = { name, keys: [], style: 'prim', build: (_f, value) => value });
}

function prim<T>(kind: PrimKind, test: (v: unknown) => boolean): Shape<T> {
  const ctor = primCtor(kind, kind === 'unit' ? 'undefined' : kind);
  return {
    kind: 'prim',
    prim: kind,
    name: kind,
    project(value, path) {
      if (!test(value)) mismatch(path, kind, value);
      return { ctor, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
  };
}

/** Numbers (generated as small integers, like QuickCheck's `Int`). */
export const number: Shape<number> = prim('number', (v) => typeof v === 'number');
/** Strings (atomic; use `List<string>` from `fromString` for a string whose characters are lazy). */
export const string: Shape<string> = prim('string', (v) => typeof v === 'string');
/** Booleans. */
export const boolean: Shape<boolean> = prim('boolean', (v) => typeof v === 'boolean');
/** BigInts. */
export const bigint: Shape<bigint> = prim('bigint', (v) => typeof v === 'bigint');
/** The unit type, `undefined`: one value, no fields. */
export const unit: Shape<undefined> = prim('unit', (v) => v === undefined);

/** What {@link opaque} needs to know of its values. */
export interface OpaqueOptions<T> {
  /** Whether an object is one of the type's values (default: any object or function but a `Lazy`): one that is not is a mismatch, named by its path. */
  readonly is?: ((value: object) => boolean) | undefined;
  /** When two values are the same, for comparing demands (default `Object.is`: the same object). */
  readonly equals?: ((a: T, b: T) => boolean) | undefined;
  /** How a value prints in demands and reports (default: `util.inspect` on one line). */
  readonly show?: ((value: T) => string) | undefined;
  /** A fast-check arbitrary that generates and shrinks the values (without one, a check cannot generate them). */
  readonly arbitrary?: Arbitrary<T> | undefined;
}

/**
 * Objects read as atoms: a `Date`, a class instance, anything that is not data strictcheck can
 * take apart. A value of an opaque shape is strict, as a number is: it is evaluated whole when
 * the position holding it is, and a function gets it as it is, not a copy (put it under
 * {@link lazyOf} for a position that can be left unevaluated). What the function reads inside it
 * is not observed, so it must hold no `Lazy` whose forcing matters. `name` names the type in
 * messages. To generate values for a check, give `arbitrary`; for the exhaustive mode, a series
 * (`withSeries`).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * const date = opaque<Date>('Date', {
 *   is: (v) => v instanceof Date,
 *   equals: (a, b) => a.getTime() === b.getTime(),
 *   show: (d) => d.toISOString().slice(0, 10),
 *   arbitrary: fc.date({ noInvalidDate: true }),
 * });
 * prettyDemand(toDemand(fromArray([new Date(0)]), list(date))); // '1970-01-01 : []'
 * ```
 */
export function opaque<T extends object>(name: string, options: OpaqueOptions<T> = {}): Shape<T> {
  const { is, equals, show = (v: T) => inspect(v, { breakLength: Infinity, depth: 2 }), arbitrary } = options;
  // The callbacks are user code: a throw names the shape (and printing, which must not fail, shows it instead).
  const blame = (what: string, err: unknown) => new TypeError(`the \`${what}\` of the opaque shape ${name} threw: ${describeSafely(err)}`, { cause: err });
  const shown = (v: unknown) => {
    try {
      return show(v as T);
    } catch (err) {
      return `<${blame('show', err).message}>`;
    }
  };
  const guarded =
    <A extends unknown[]>(what: string, f: (...args: A) => boolean) =>
    (...args: A): boolean => {
      try {
        return f(...args);
      } catch (err) {
        throw blame(what, err);
      }
    };
  const fits = is && guarded('is', is);
  const ctor: Ctor = { name, keys: [], style: 'prim', build: (_f, value) => value, show: shown, ...(equals && { equals: guarded('equals', equals as (a: unknown, b: unknown) => boolean) }) };
  return {
    kind: 'prim',
    prim: 'opaque',
    name,
    project(value, path) {
      const object = (typeof value === 'object' && value !== null) || typeof value === 'function';
      if (!object || value instanceof Lazy || (fits && !fits(value))) mismatch(path, object && !(value instanceof Lazy) ? name : `${name} (an object)`, value);
      return { ctor, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
    ...(arbitrary && { arbitrary }),
  };
}

/** @internal Whether `s` was made by {@link opaque}. */
export function isOpaque(s: Shape<unknown>): boolean {
  return s.kind === 'prim' && s.prim === 'opaque';
}

/**
 * The constructor of symbols: atoms to the dynamic shape (no declared shape has them), equal when
 * they are the same symbol, printed `Symbol(description)`.
 */
const SYMBOL_CTOR = primCtor('symbol', 'symbol');

/** A function carrying this property (`{ describe(): string }`) prints as what it describes, not `<function>`. */
export const DESCRIBE = Symbol('strictcheck.describe');

/** The constructor of every function: opaque, either demanded (called) or not. */
export const FN_CTOR: Ctor = { name: '<function>', keys: [], style: 'fn', build: (_f, value) => value };

/**
 * Functions from `args` to `result`: opaque to demands (a function is demanded once it is
 * called), but generated as random non-strict functions by the checker.
 *
 * @example
 * ```ts
 * // map's arguments: a function from numbers to numbers, and a list
 * const mapArgs = [fn([number], number), list(number)] as const;
 * ```
 */
export function fn<A extends readonly unknown[], R>(
  args: { readonly [K in keyof A]: Shape<A[K]> },
  result: Shape<R>,
): Shape<(...args: A) => R> {
  return {
    kind: 'fn',
    args: args as readonly Shape<unknown>[],
    result: result as Shape<unknown>,
    name: `(${(args as readonly Shape<unknown>[]).map((a) => a.name).join(', ')}) => ${result.name}`,
    project(value, path) {
      if (typeof value !== 'function') mismatch(path, 'a function', value);
      return { ctor: FN_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Lazy positions

/**
 * A lazy position holding a value of shape `inner`: where a demand can say "not evaluated".
 *
 * @example
 * ```ts
 * tuple(number, lazyOf(string)).name; // '[number, Lazy<string>]': the second component may stay unevaluated
 * ```
 */
export function lazyOf<T>(inner: Shape<T> | (() => Shape<T>)): Shape<Lazy<T>> {
  const get = typeof inner === 'function' ? (inner as () => Shape<T>) : () => inner;
  let name: string | undefined;
  return {
    kind: 'lazy',
    inner: get as () => Shape<unknown>,
    get name() {
      return (name ??= `Lazy<${get().name}>`);
    },
    project(value, path) {
      // Lazy positions are handled by the walkers themselves; projecting one is a misuse.
      // A list cell here is the common slip: a list inside a list, or a cell given for a list.
      if (!(value instanceof Lazy)) mismatch(path, value instanceof Cons || value instanceof Nil ? 'a Lazy (a list is a Lazy of its first cell: wrap the cell with now(…))' : Array.isArray(value) && isListCell(get() as Shape<unknown>) ? AN_ARRAY_FOR_A_LIST : 'a Lazy', value);
      throw new TypeError('a lazy shape has no layer: force the Lazy and project its value');
    },
  };
}

/** What a lazy list's position expected where it found an array: a newcomer's slip, said with its fix. */
const AN_ARRAY_FOR_A_LIST = 'a lazy list (a Lazy of its first cell, not an array: fromArray(array) makes one, and an arbitrary of arrays gives them with .map(fromArray))';

/** @internal Whether `s` is the shape of a list cell (of {@link cell}). */
export function isListCell(s: Shape<unknown>): boolean {
  return s.kind === 'data' && s.alternatives()[1]?.ctor === CONS_CTOR;
}

// ---------------------------------------------------------------------------------------------
// Data types: one constructor per alternative, a shape per field

/** Marks the objects made by a declared constructor, pointing at its `Ctor`. */
const CTOR = Symbol('strictcheck.ctor');

/**
 * Gives `obj` the own, plain field `key` (as `JSON.parse` and spreads make fields): what
 * every object built from keys is built with. An assignment does so for every key but
 * `__proto__`, which it takes as the object's prototype (the other properties of the prototypes
 * of built objects, `Object.prototype`'s and a declared type's, are writable data).
 */
function defineOwn(obj: Record<PropertyKey, unknown>, key: PropertyKey, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

function dataCtor(name: string, keys: readonly PropertyKey[], style: CtorStyle, proto: object | null, type?: string): Ctor {
  const ctor: Ctor = {
    name,
    keys,
    style,
    type,
    build(fields) {
      const obj: Record<PropertyKey, unknown> = Object.create(proto);
      if (style === 'data') obj.tag = name;
      for (let i = 0; i < keys.length; i++) defineOwn(obj, keys[i]!, fields[i]);
      return obj;
    },
  };
  return ctor;
}

/** A value of a declared data type, or of its constructor `K`: an object whose `tag` names its constructor. */
export type Tagged<K extends string = string> = {
  /** The name of the value's constructor. */
  readonly tag: K;
};
/** Field shapes of one constructor of a declared data type, keyed by field name. */
export type FieldsOf<T, K extends string> = Omit<Extract<T, Tagged<K>>, 'tag'>;
/** A data declaration: for each tag of `T`, the shapes of that constructor's fields. */
export type DataDecl<T extends Tagged> = {
  readonly [K in T['tag']]: { readonly [F in keyof FieldsOf<T, K>]: Shape<FieldsOf<T, K>[F]> };
};
/** Constructor functions of a declared data type: `Tree.make.Node({ left, value, right })`. */
export type Makers<T extends Tagged> = {
  readonly [K in T['tag']]: keyof FieldsOf<T, K> extends never ? () => Extract<T, Tagged<K>> : (fields: FieldsOf<T, K>) => Extract<T, Tagged<K>>;
};

/** The shape of a declared data type, with its constructor functions. */
export type DataShape<T extends Tagged> = Shape<T> & {
  /** A function per constructor that builds a value of it, e.g. `Tree.make.Leaf()`. */
  readonly make: Makers<T>;
};

/**
 * Declares an algebraic data type: the one declaration from which observation, printing, demand
 * conversion, random generation (`Produce`/`Consume`), shrinking and enumeration are derived, as
 * `instance Shaped T` does in Haskell. Values are objects with a `tag` naming the constructor;
 * fields that should be lazy are declared {@link lazyOf}. A field named `tag` is refused (it is
 * the discriminant); a constructor or field named `__proto__` is declared with a computed key,
 * `['__proto__']`, and its values have it as a field.
 *
 * @example
 * ```ts
 * type Tree = { tag: 'Leaf' } | { tag: 'Node'; left: Lazy<Tree>; value: number; right: Lazy<Tree> };
 * const Tree: DataShape<Tree> = data<Tree>('Tree', (Tree) => ({
 *   Leaf: {},
 *   Node: { left: lazyOf(Tree), value: number, right: lazyOf(Tree) },
 * }));
 * const t = Tree.make.Node({ left: now(Tree.make.Leaf()), value: 1, right: now(Tree.make.Leaf()) });
 * ```
 */
export function data<T extends Tagged>(name: string, declare: (self: Shape<T>) => DataDecl<T>): DataShape<T> {
  // A declaration is a type of its own: a second declaration of a name is another type (another module's `Tree`).
  const count = (declarations.get(name) ?? 0) + 1;
  declarations.set(name, count);
  return declareData(name, declare, count === 1 ? name : `${name}#${count}`);
}

/** How many types each name was declared for, by {@link data}. */
const declarations = new Map<string, number>();

/** A data type named `name`, declared by `declare`, told apart from other types by `type` (see {@link Ctor.type}). */
function declareData<T extends Tagged>(name: string, declare: (self: Shape<T>) => DataDecl<T>, type: string): DataShape<T> {
  let alts: Alternative[] | undefined;
  const byName = new Map<string, Alternative>();
  const make: Record<string, (fields?: Record<PropertyKey, unknown>) => unknown> = {};
  const self = {
    kind: 'data',
    name,
    alternatives: () => init(),
    project(value: unknown, path: Path): Layer {
      init();
      const tag = value !== null && typeof value === 'object' ? (value as { tag?: unknown }).tag : undefined;
      const alt = typeof tag === 'string' ? byName.get(tag) : undefined;
      if (alt === undefined) mismatch(path, `${name} (${[...byName.keys()].join(' | ')})`, value);
      const v = value as Record<PropertyKey, unknown>;
      const keys = alt.ctor.keys;
      const fields = keys.map((k) => v[k]);
      for (let i = 0; i < keys.length; i++) if (fields[i] === undefined && !(keys[i]! in v)) missingField(path, keys[i]!, `${name}'s ${alt.ctor.name}`, v);
      return { ctor: alt.ctor, fields, shapes: alt.shapes };
    },
  } as unknown as DataShape<T>;
  // The declaration may mention shapes declared after this one: read it on first use.
  Object.defineProperty(self, 'make', { get: () => (init(), make), enumerable: true });
  function init(): Alternative[] {
    if (alts) return alts;
    alts = [];
    const decl = declare(self) as Record<string, Record<string, Shape<unknown>>>;
    for (const [tag, fields] of Object.entries(declaration(decl, `data '${name}'`))) {
      const keys = Object.keys(declaration(fields, `data '${name}', constructor ${keyText(tag)}`));
      if (keys.includes('tag')) {
        throw new TypeError(`data '${name}': constructor ${keyText(tag)} has a field named 'tag', the discriminant that names a value's constructor: rename the field`);
      }
      const proto = Object.create(DATA_PROTO);
      const ctor = dataCtor(tag, keys, 'data', proto, type);
      proto[CTOR] = { ctor, shape: self };
      const alt = { ctor, shapes: Object.values(fields) };
      alts.push(alt);
      byName.set(tag, alt);
      defineOwn(make, tag, (given: Record<PropertyKey, unknown> = {}) => ctor.build(ctor.keys.map((k) => given[k])));
    }
    return alts;
  }
  return self;
}

/**
 * The declaration `decl` of `what`, refused if its prototype is not a plain object's: a
 * `__proto__: …` written in an object literal sets the prototype, and declares nothing.
 */
function declaration<D extends object>(decl: D, what: string): D {
  const proto: unknown = Object.getPrototypeOf(decl);
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`${what}: the declaration is not a plain object (a \`__proto__: …\` key in an object literal sets its prototype, and declares nothing): write a field or constructor of that name as \`['__proto__']: …\``);
  }
  return decl;
}

/** Prototype of declared data values: they print in demand notation in the REPL (set up by the printer). */
export const DATA_PROTO: Record<PropertyKey, unknown> = {};

// ---------------------------------------------------------------------------------------------
// Lists, tuples, records, options, eithers

/** The constructors of list cells. */
const NIL_CTOR: Ctor = { name: '[]', keys: [], style: 'nil', build: () => NIL };
export const CONS_CTOR: Ctor = {
  name: ':',
  keys: ['head', 'tail'],
  style: 'cons',
  build: (f) => new Cons(f[0] as Lazy<unknown>, f[1] as List<unknown>),
};

const cellShapes = new WeakMap<Shape<unknown>, Shape<unknown>>();

/**
 * The shape of one list cell with elements of shape `elem`.
 *
 * @example
 * ```ts
 * cell(number).name; // 'List<number>': what a List.List<number> holds once forced
 * ```
 */
export function cell<T>(elem: Shape<T>): Shape<Cell<T>> {
  const cached = cellShapes.get(elem as Shape<unknown>);
  if (cached) return cached as Shape<Cell<T>>;
  const consShapes: Shape<unknown>[] = [];
  const alternatives: Alternative[] = [
    { ctor: NIL_CTOR, shapes: NO_SHAPES },
    { ctor: CONS_CTOR, shapes: consShapes },
  ];
  const s: Shape<Cell<T>> = {
    kind: 'data',
    name: `List<${elem.name}>`,
    alternatives: () => alternatives,
    project(value, path) {
      if (value instanceof Cons) return { ctor: CONS_CTOR, fields: [value.head, value.tail], shapes: consShapes };
      if (value instanceof Nil) return { ctor: NIL_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES };
      return mismatch(path, `a list cell of List<${elem.name}>`, value);
    },
  };
  consShapes.push(lazyOf(elem) as Shape<unknown>, lazyOf(s) as Shape<unknown>);
  cellShapes.set(elem as Shape<unknown>, s as Shape<unknown>);
  return s;
}

/**
 * Lazy lists of elements of shape `elem`: a lazy spine with lazy elements.
 *
 * @example
 * ```ts
 * list(number).name; // 'Lazy<List<number>>'
 * toDemand(fromArray(['a']) as unknown as List.List<number>, list(number)); // throws ShapeMismatchError at demand.head
 * ```
 */
export function list<T>(elem: Shape<T>): Shape<List<T>> {
  return lazyOf(cell(elem));
}

const tupleCtors: Ctor[] = [];
/** The constructor of tuples of length `n`. */
function tupleCtor(n: number): Ctor {
  return (tupleCtors[n] ??= {
    name: `(${','.repeat(Math.max(0, n - 1))})`,
    keys: Array.from({ length: n }, (_, i) => i),
    style: 'tuple',
    build: (f) => [...f],
  });
}

/**
 * Tuples (arrays of fixed length); components are strict unless their shape is {@link lazyOf}.
 *
 * @example
 * ```ts
 * const pair = tuple(number, lazyOf(number));
 * prettyDemand(toDemand([1, thunk], pair)); // '(1, _)'
 * ```
 */
export function tuple<A extends readonly unknown[]>(...components: { readonly [K in keyof A]: Shape<A[K]> }): Shape<A> {
  const shapes = components as readonly Shape<unknown>[];
  const ctor = tupleCtor(shapes.length);
  const alternatives = [{ ctor, shapes }];
  return {
    kind: 'data',
    name: `[${shapes.map((s) => s.name).join(', ')}]`,
    alternatives: () => alternatives,
    project(value, path) {
      if (!Array.isArray(value) || value.length !== shapes.length) mismatch(path, `a tuple of length ${shapes.length}`, value);
      return { ctor, fields: value, shapes };
    },
  };
}

/** The constructor of records with these keys, whose values have prototype `proto`: `Object.prototype`, or none (`null`). */
export function recordCtor(keys: readonly string[], proto: object | null = Object.prototype): Ctor {
  return plainCtor(undefined, keys, proto);
}

// Records', then tagged objects', each with Object.prototype, then with none.
const plainCtors = [new Map<string, Ctor>(), new Map<string, Ctor>(), new Map<string, Ctor>(), new Map<string, Ctor>()];
/** @internal A JavaScript identifier: it prints bare as a record key or a constructor name. */
export const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * @internal A record key as JavaScript writes it, in printed demands and in a record's
 * constructor name (demands compare constructors by name): `{ a: 1, "c: 2, d": 3 }` has two
 * fields, not three, and a symbol key is `[Symbol(s)]`, not the string `"[Symbol(s)]"`.
 */
export function keyText(key: PropertyKey): string {
  if (typeof key === 'symbol') return `[${String(key)}]`;
  const k = String(key);
  // `__proto__: …` and `"__proto__": …` in an object literal set its prototype: a field of that name is written computed.
  if (k === '__proto__') return '["__proto__"]';
  return IDENTIFIER.test(k) ? k : JSON.stringify(k);
}

/**
 * The constructor, one shared, of plain objects with these keys and prototype `proto`
 * (`Object.prototype`, or none: `null`): records, or with a `tag`, the tagged objects it names.
 */
function plainCtor(tag: string | undefined, keys: readonly string[], proto: object | null): Ctor {
  const ctors = plainCtors[(tag === undefined ? 0 : 2) + (proto === null ? 1 : 0)]!;
  const id = tag === undefined ? keys.join('\u0000') : tag + '\u0000' + keys.join('\u0000');
  let ctor = ctors.get(id);
  if (!ctor) {
    ctor = tag === undefined ? dataCtor(`{${keys.map(keyText).join(', ')}}`, keys, 'record', proto) : dataCtor(tag, keys, 'data', proto);
    ctors.set(id, ctor);
  }
  return ctor;
}

/**
 * Records (plain objects with these keys); fields are strict unless their shape is {@link lazyOf}.
 *
 * @example
 * ```ts
 * const point = record({ x: number, y: lazyOf(number) });
 * prettyDemand(toDemand({ x: 1, y: thunk }, point)); // '{ x: 1, y: _ }'
 * ```
 */
export function record<R extends Record<string, unknown>>(fields: { readonly [K in keyof R]: Shape<R[K]> }): Shape<R> {
  const keys = Object.keys(declaration(fields, 'record'));
  const shapes = Object.values(fields) as Shape<unknown>[];
  const ctor = recordCtor(keys);
  const bare = recordCtor(keys, null);
  const alternatives = [{ ctor, shapes }];
  const name = `{ ${keys.map((k, i) => `${k}: ${shapes[i]!.name}`).join('; ')} }`;
  return {
    kind: 'data',
    name,
    alternatives: () => alternatives,
    project(value, path) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Lazy) {
        mismatch(path, 'a record', value);
      }
      const v = value as Record<string, unknown>;
      // An inherited `__proto__` is the prototype, never a field.
      for (const k of keys) if (!(k in v) || (k === '__proto__' && !Object.hasOwn(v, k))) missingField(path, k, name, v);
      return { ctor: Object.getPrototypeOf(v) === null ? bare : ctor, fields: keys.map((k) => v[k]), shapes };
    },
  };
}

/** An optional value: `{ tag: 'None' }` or `{ tag: 'Some', value }`. */
export type Option<T> =
  | {
      /** No value. */
      readonly tag: 'None';
    }
  | {
      /** A value, in `value`. */
      readonly tag: 'Some';
      /** The value. */
      readonly value: T;
    };
/** One of two values: `{ tag: 'Left', value }` or `{ tag: 'Right', value }`. */
export type Either<A, B> =
  | {
      /** The first alternative: `value` is an `A`. */
      readonly tag: 'Left';
      /** The `A`. */
      readonly value: A;
    }
  | {
      /** The second alternative: `value` is a `B`. */
      readonly tag: 'Right';
      /** The `B`. */
      readonly value: B;
    };

/**
 * Options of `T` (Haskell's `Maybe`); the field is strict unless its shape is {@link lazyOf}.
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(option(number).make.Some({ value: 3 }))); // 'Some 3'
 * ```
 */
export function option<T>(inner: Shape<T>): DataShape<Option<T>> {
  const name = `Option<${inner.name}>`;
  // Options of one shape name are one type, however many times declared.
  return declareData<Option<T>>(name, () => ({ None: {}, Some: { value: inner } }) as DataDecl<Option<T>>, name);
}

/**
 * Either `A` or `B`; the fields are strict unless their shapes are {@link lazyOf}.
 *
 * @example
 * ```ts
 * either(number, string).name; // 'Either<number, string>'
 * ```
 */
export function either<A, B>(left: Shape<A>, right: Shape<B>): DataShape<Either<A, B>> {
  const name = `Either<${left.name}, ${right.name}>`;
  return declareData<Either<A, B>>(name, () => ({ Left: { value: left }, Right: { value: right } }) as DataDecl<Either<A, B>>, name);
}

// ---------------------------------------------------------------------------------------------
// Sets and maps: strict containers with a constructor per size

/** The element shapes of a set (`elem`) or a map (`key`, `value`). */
export type Collection =
  | {
      /** A set. */
      readonly kind: 'set';
      /** The shape of its elements. */
      readonly elem: Shape<unknown>;
    }
  | {
      /** A map. */
      readonly kind: 'map';
      /** The shape of its keys. */
      readonly key: Shape<unknown>;
      /** The shape of its values. */
      readonly value: Shape<unknown>;
    };

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
function collectionLayer(v: ReadonlySet<unknown> | ReadonlyMap<unknown, unknown>, set: boolean, collection?: Collection): Layer {
  const ctor = set ? setCtor(v.size) : mapCtor(v.size);
  const shapes = (n: number) => (collection ? collectionShapes(collection, n) : dyn(n));
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
      return collectionLayer(value, true, collection);
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
      return collectionLayer(v, false, collection);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Dynamic shapes: read a value's structure from its run-time form

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
    if (value instanceof Nil) return { ctor: NIL_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES };
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
  return collectionLayer(v, set);
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

safeInstanceof(ShapeMismatchError);
