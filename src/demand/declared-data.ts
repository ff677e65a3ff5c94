/**
 * Declared data types (`data`): one constructor per alternative, a shape per field; and the
 * built-in ones, options and eithers.
 * @module
 */
import { CTOR } from './data-mark.ts';
import { keyText } from './key-text.ts';
import type { Path } from './path.ts';
import { mismatch, missingField } from './shape-errors.ts';
import type { Alternative, Ctor, CtorStyle, Layer, Shape } from './shape-types.ts';

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

export function dataCtor(name: string, keys: readonly PropertyKey[], style: CtorStyle, proto: object | null, type?: string): Ctor {
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
export function declaration<D extends object>(decl: D, what: string): D {
  const proto: unknown = Object.getPrototypeOf(decl);
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`${what}: the declaration is not a plain object (a \`__proto__: …\` key in an object literal sets its prototype, and declares nothing): write a field or constructor of that name as \`['__proto__']: …\``);
  }
  return decl;
}

/** Prototype of declared data values: they print in demand notation in the REPL (set up by the printer). */
export const DATA_PROTO: Record<PropertyKey, unknown> = {};

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
