/**
 * The checks the parallel bench runs with workers, which import this module again: `take`, whose
 * trials cost microseconds, and a `take` that first computes for about a millisecond.
 * @module
 */
import { defineCheck } from '../src/spec/registry.ts';
import { take, takeSpec } from '../examples/take.ts';
import type { Lazy } from '../src/lazy/lazy.ts';
import type { List } from '../src/lazy/cell.ts';

/** Iterations of {@link heavyTake}'s loop: about a millisecond of computation (a fixed amount of work, not of time, so that a loaded machine does not shorten it). */
const HEAVY_LOOP = 1_500_000;

let sink = 0;
/** `take`, after a fixed computation of about a millisecond. */
export function heavyTake<T>(n: Lazy<number>, xs: List<T>): List<T> {
  let x = 0;
  for (let i = 0; i < HEAVY_LOOP; i++) x = (x * 31 + i) | 0;
  sink ^= x;
  return take(n, xs);
}

export const takeBenchCheck = defineCheck(import.meta.url, 'take', takeSpec, take);
export const heavyBenchCheck = defineCheck(import.meta.url, 'heavy', takeSpec, heavyTake);
