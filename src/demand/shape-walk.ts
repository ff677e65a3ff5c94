/**
 * Walks over shapes themselves (not values): the shapes one layer down, a search through them,
 * and what is computed once per shape.
 * @module
 */
import type { Shape } from './shape-types.ts';

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
