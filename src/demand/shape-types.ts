/**
 * Shapes: run-time descriptions of a type's structure, the TypeScript analogue of `Shaped`.
 *
 * TypeScript erases types, so a shape is a value. A shape projects a value into one layer (a
 * constructor and its fields) and embeds a layer back into a value; every lazy field is a
 * {@link lazyOf} shape, where a demand can say "not evaluated". Observation, printing, demand
 * conversion, random generation, shrinking and enumeration are all derived from shapes.
 *
 * This module holds what a shape is (its types); the shapes themselves are made in the modules
 * beside it: `primitives.ts`, `opaque.ts`, `lazy-positions.ts` (lazy fields and lists),
 * `tuples.ts`, `records.ts`, `declared-data.ts`, `collections.ts` and `dynamic.ts`.
 * @module
 */
import type { Arbitrary } from 'fast-check';
import type { Path } from './path.ts';

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
  /** Where a spec receives a demand in value form otherwise than {@link Ctor.build} embeds it (`Ahead`, its iteration alone): that value. */
  readonly received?: (fields: readonly unknown[]) => unknown;
  /** For the constructor of an {@link opaque} shape: when two of its values are the same in a demand (without it, `Object.is`). */
  readonly equals?: (a: unknown, b: unknown) => boolean;
  /** For the constructor of an {@link opaque} shape: how one of its values prints. */
  readonly show?: (value: unknown) => string;
  /** For an event that ends an iteration at the consumer's will (`return()`, `throw()`): it is less defined than anything found at its place but the other close, as closing earlier is (see `lessDefined`). */
  readonly closes?: boolean;
  /** For a close with a plainer one at the same place (`throw()`: `return()`, what a consumer's `break` does): that close's constructor, which a counterexample's shrinking tries first. */
  readonly plainer?: Ctor;
  /** For an iteration of a re-iterable source begun by taking its iterator and left without any event (`taken`): left open after 0 pulls, below only what does not end in a close (see `lessDefined`). */
  readonly taken?: boolean;
  /** For a node an iteration goes on through (`Ahead`): the field holding the iteration, whose end is its own (see `lessDefined`). */
  readonly iterationField?: number;
  /**
   * For the demand on a re-iterable source (`Iterations`): its fields are its iterations, each
   * begun or not, and this gives the constructor of `n` of them. An iteration not begun (`_`, or
   * one past its fields) has nothing to close: it is below any (see `lessDefined`). Its last
   * field is one begun: none begun is `_`.
   */
  readonly iterations?: (n: number) => Ctor;
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
  /** Whether its values are one-shot iterators (one iteration), where others are re-iterable sources whose demand is their `Iterations`. */
  readonly oneShot?: boolean;
  /** The instrumented copy of `value`, which records its demand while `rec` is open. */
  instrument(value: unknown, path: Path, into: object, at: number, rec: { readonly open: boolean }): unknown;
  /** Consumes `value` as `guide` (a walk's `Guide`) says and records its demand; `false` for a guide that only reads what is evaluated, which a protocol's value cannot tell. */
  consume(value: unknown, path: Path, guide: unknown, into: object, at: number, fit: boolean): boolean;
  /** Consumes `value` as the random context `consumer` does, and records its demand, within the pulls left to it (shared with the values it consumed before, and those it consumes inside this one). */
  consumeRandomly(value: unknown, path: Path, consumer: RandomConsumer, into: object, at: number): void;
  /** A random value of size `size`, `generate` making the values of other shapes. */
  generate(random: { int(lo: number, hi: number): number }, size: number, generate: (s: Shape<unknown>, size: number) => unknown): unknown;
  /** Smaller values than `value`, `shrink` giving those of a value of another shape. */
  shrink(value: unknown, shrink: (v: unknown, s: Shape<unknown>) => Iterable<unknown>): Iterable<unknown>;
}

/**
 * @internal A random context of size `size` consuming the values of protocol shapes (iterables)
 * it meets, drawing from `r`, within its allowance of pulls: a random consumer of iterables, or a
 * random context on a result that holds them in its data (see `forceAt`).
 */
export interface RandomConsumer {
  readonly r: { int(lo: number, hi: number): number };
  readonly size: number;
  /**
   * The pulls it may still make (its allowance, `pullAllowance(size)` to begin with), shared by the
   * iterables it consumes inside one another: an infinite result stays a finite context, and nesting
   * does not multiply the bound (iterables of infinite iterables, each pulled so far, were pulled
   * past the force budget, a pass-through reported as diverging).
   */
  pulls: number;
}

/** The type a shape describes. */
export type TypeOf<S> = S extends Shape<infer T> ? T : never;

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

/** @internal The fields, and their shapes, of a layer that has none. */
export const NO_SHAPES: readonly Shape<unknown>[] = [];
export const NO_FIELDS: readonly unknown[] = [];
