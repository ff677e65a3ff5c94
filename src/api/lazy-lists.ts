/**
 * Lazy lists: building them (`cons`, `nil`, `fromArray`), reading them (`toArray`), and the
 * `List` namespace of the Prelude's list functions, with GHC's laziness.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Lazy lists
 */
export * as List from '../lazy/list.ts';
export { cons, lazyCons, nil, fromArray, fromString, toArray } from '../lazy/list.ts';
export type { List as LazyList } from '../lazy/cell.ts';
