/**
 * Tuples: arrays of fixed length.
 * @module
 */
import { mismatch } from './shape-errors.ts';
import type { Ctor, Shape } from './shape-types.ts';

const tupleCtors: Ctor[] = [];
/** The constructor of tuples of length `n`. */
export function tupleCtor(n: number): Ctor {
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
