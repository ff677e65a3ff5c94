/**
 * strictcheck: property-based testing of the strictness of functions over explicitly lazy data,
 * a TypeScript port of StrictCheck (Foner, Zhang, Lampropoulos, ICFP 2018).
 *
 * @example
 * ```ts
 * import { observe, normalize, fromArray, List, prettyDemand } from 'strictcheck';
 * const times = (xs: List.List<number>, ys: List.List<number>) => List.zipWith((a: number, b: number) => a * b, xs, ys);
 * const { result, inputs } = observe(normalize, times, fromArray([10, 20]), fromArray([30, 40]));
 * prettyDemand(inputs[1]!); // '30 : 40 : _'
 * ```
 * @module
 */
export * from './api/lazy-values.ts';
export * from './api/lazy-lists.ts';
export * from './api/shapes.ts';
export * from './api/demands.ts';
export * from './api/observing.ts';
export * from './api/specs.ts';
export * from './api/checking.ts';
export * from './api/generation.ts';
export * from './api/parallel.ts';
