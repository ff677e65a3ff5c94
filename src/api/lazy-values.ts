/**
 * Lazy values: memoising thunks (`Lazy`), the "not evaluated" marker `thunk`, the force budget,
 * and the cells lazy lists are made of (`Cons`, and `Nil` with its one value `NIL`).
 *
 * Imported from `strictcheck`, as everything else.
 * @module Lazy values
 */
export {
  Lazy, lazy, now, defer, force, isLazy, thunk, type Thunk, isThunk, withForceBudget, forceCount, forceCallCount,
  LazyLoopError, UnevaluatedError, ForceBudgetExceeded, LazyStackOverflow,
} from '../lazy/lazy.ts';
export { NIL, Cons, Nil } from '../lazy/list.ts';
export type { Cell } from '../lazy/cell.ts';
