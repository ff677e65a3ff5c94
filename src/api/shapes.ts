/**
 * Shapes: the structure of a type as a value (TypeScript's types are gone at run time), from which
 * observing, printing, demand conversion and generation follow; your own algebraic data types with
 * `data`, iterables with `iterable`.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Shapes
 */
export {
  type Shape, type ShapeInfo, type TypeOf, type DataShape, type DataDecl, type FieldsOf, type Makers, type Tagged, type Option, type Either, type Ctor, type CtorStyle, type Layer, type Alternative, type PrimKind, type Path, type Collection,
  number, string, boolean, bigint, unit, opaque, type OpaqueOptions, fn, lazyOf, data, list, cell, tuple, record, option, either, setOf, mapOf, dynamic,
  ShapeMismatchError, showPath,
} from '../demand/shape.ts';
export { iterable, iterator, type IterDemand } from '../iter/index.ts';
export { asyncIterable, asyncIterator, type AnyIterDemand } from '../iter/index.ts';
