/**
 * Shapes: the structure of a type as a value (TypeScript's types are gone at run time), from which
 * observing, printing, demand conversion and generation follow; your own algebraic data types with
 * `data`, iterables with `iterable`.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Shapes
 */
export { type Shape, type ShapeInfo, type TypeOf, type Ctor, type CtorStyle, type Layer, type Alternative, type PrimKind, type Collection } from '../demand/shape-types.ts';
export { number, string, boolean, bigint, unit, fn } from '../demand/primitives.ts';
export { opaque, type OpaqueOptions } from '../demand/opaque.ts';
export { lazyOf, list, cell } from '../demand/lazy-positions.ts';
export { tuple } from '../demand/tuples.ts';
export { record } from '../demand/records.ts';
export { type DataShape, type DataDecl, type FieldsOf, type Makers, type Tagged, type Option, type Either, data, option, either } from '../demand/declared-data.ts';
export { setOf, mapOf } from '../demand/collections.ts';
export { dynamic } from '../demand/dynamic.ts';
export { type Path, showPath } from '../demand/path.ts';
export { ShapeMismatchError } from '../demand/shape-errors.ts';
export { iterable, iterator, type IterDemand } from '../iter/index.ts';
export { asyncIterable, asyncIterator, type AnyIterDemand } from '../iter/index.ts';
