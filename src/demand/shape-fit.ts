/**
 * Checking a value against its shape as a walk meets it, without projecting it where that is cheap:
 * primitives, the shape inside a `Lazy`, the shapes of a list cell's fields.
 * @module
 */
import type { Lazy } from '../lazy/lazy.ts';
import type { Cons } from '../lazy/cell.ts';
import { DYN2 } from './dynamic.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import type { Path } from './path.ts';
import { primitiveCtor } from './primitives.ts';
import type { Shape } from './shape-types.ts';

/** The `typeof` of each kind of primitive, to check primitives against their shapes without projecting them. */
const PRIM_TYPES: Record<string, string> = { number: 'number', string: 'string', boolean: 'boolean', bigint: 'bigint', unit: 'undefined' };

/** The shape of what the Lazy `v` holds, where `v` sits at shape `s`: throws the mismatch if `s` is not a lazy position. @internal */
export function insideLazy(s: Shape<unknown>, v: Lazy<unknown>, p: Path): Shape<unknown> {
  const inner = insideLazyPosition(s);
  if (inner === undefined) s.project(v, p); // throws the mismatch
  return inner ?? s;
}

/** The shape of what a `Lazy` holds at a field of shape `s`, or `undefined` if that field is not a lazy position. @internal */
export function insideLazyPosition(s: Shape<unknown>): Shape<unknown> | undefined {
  return s.kind === 'lazy' ? s.inner() : s.kind === 'dynamic' ? s : undefined;
}

/** Whether primitive `v` has shape `s` (cheaply: without projecting it). @internal */
export function primitiveFits(v: unknown, s: Shape<unknown>): boolean {
  return s.kind === 'dynamic' || (s.kind === 'prim' && PRIM_TYPES[s.prim] === typeof v);
}

/** Throws the mismatch if primitive `v` does not have shape `s`. @internal */
export function checkPrimitive(v: unknown, s: Shape<unknown>, p: Path): void {
  if (!primitiveFits(v, s)) s.project(v, p);
}

/**
 * @internal The shapes of the head and tail of list cell `v`, where `v` has shape `s`: throws the
 * mismatch if `s` is not a list cell's; `undefined` where `s` reads the cell as a layer of another
 * constructor (the `Iterations` of a re-iterable source, whose one iteration is a bare list in value form).
 */
export function consShapes(s: Shape<unknown>, v: Cons<unknown>, p: Path): readonly Shape<unknown>[] | undefined {
  if (s.kind === 'dynamic') return DYN2;
  const declared = declaredConsShapes(s);
  if (declared !== undefined) return declared;
  const layer = s.project(v, p);
  return layer.ctor === CONS_CTOR ? layer.shapes : undefined;
}

/** @internal The shapes of the head and tail of a cell of `s` where `s` is a declared list's, without projecting a cell. */
export function declaredConsShapes(s: Shape<unknown>): readonly Shape<unknown>[] | undefined {
  const cons = s.kind === 'data' ? s.alternatives()[1] : undefined;
  return cons?.ctor === CONS_CTOR ? cons.shapes : undefined;
}

/** @internal Whether `v` is recorded as a primitive (a value of one of the primitive shapes). */
export function isPrimitive(v: unknown): boolean {
  return typeof v !== 'object' && typeof v !== 'function' && primitiveCtor(typeof v) !== undefined;
}
