/**
 * Random sets and maps, made alike by eager generation and by production.
 * @module
 */
import type { Collection, Shape } from '../demand/shape-types.ts';
import type { Random } from './random.ts';
import { elementSize, type Enclosing } from './sizes.ts';

type S = Shape<unknown>;

/** @internal A random set or map of up to `size` elements, each made by `element` at its size (equal keys collapse, so it may be smaller). */
export function collection(c: Collection, r: Random, size: number, enclosing: Enclosing, element: (s: S, size: number) => unknown): unknown {
  const n = r.int(0, Math.max(0, size));
  const sized = (s: S) => [s, elementSize(s, size, n, enclosing)] as const;
  if (c.kind === 'set') {
    const [elem, each] = sized(c.elem);
    return new Set(Array.from({ length: n }, () => element(elem, each)));
  }
  const [[key, keySize], [value, valueSize]] = [sized(c.key), sized(c.value)];
  return new Map(Array.from({ length: n }, () => [element(key, keySize), element(value, valueSize)] as const));
}
