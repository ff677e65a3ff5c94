/**
 * Random sources and their shrinking: a source of up to `size` elements, one in four cycling
 * through them for ever (none, for a shape of finite sources), one in four throwing at a pull, one in five without `return`, one in ten
 * with a `return` that throws; shrunk to no throw or an earlier one, with a `return` that does
 * not throw, finite, fewer and smaller elements.
 * @module
 */
import type { Shape } from '../demand/shape-types.ts';
import { shrinkItems } from '../engine/shrink.ts';
import { AsyncSource, Source, type AsyncSourcePlan, type SourcePlan } from './source.ts';

/**
 * A random source of elements of shape `elem` (made by `generate` at a size), of size `size`,
 * `finite` or not. One that throws is made in canonical form (see {@link canonical}).
 */
export function generateSource(elem: Shape<unknown>, r: { int(lo: number, hi: number): number }, size: number, generate: (s: Shape<unknown>, size: number) => unknown, finite: boolean): Source<unknown> {
  const n = r.int(0, Math.max(0, size));
  const each = n === 0 ? 0 : Math.max(0, Math.floor(size / Math.sqrt(n)));
  const elements: unknown[] = [];
  for (let i = 0; i < n; i++) elements.push(generate(elem, each));
  const infinite = !finite && n > 0 && r.int(0, 3) === 0;
  const throwAt = r.int(0, 3) === 0 ? r.int(0, infinite ? Math.max(n, size) : n) : undefined;
  // One draw for both, which keeps the sources of a seed what they were before returns threw: 0 and 5 are none.
  const closing = r.int(0, 9);
  return new Source(canonical({ elements, infinite, throwAt, hasReturn: closing % 5 !== 0, returnThrows: closing === 9 }));
}

/**
 * A random async source: as {@link generateSource}'s, its pulls answered after 0 to 3 turns of
 * the event loop each (one in three answering at once), so that pulls pending at once settle in
 * random order; a throwing pull rejects.
 */
export function generateAsyncSource(elem: Shape<unknown>, r: { int(lo: number, hi: number): number }, size: number, generate: (s: Shape<unknown>, size: number) => unknown, finite: boolean): AsyncSource<unknown> {
  const { plan } = generateSource(elem, r, size, generate, finite);
  const delays = r.int(0, 2) === 0 ? [] : Array.from({ length: plan.elements.length + 1 }, () => r.int(0, 3));
  return new AsyncSource({ ...plan, delays });
}

/**
 * The plan of a source that throws, written as what its pulls answer: its elements up to the
 * throw, finite. Two plans that behave alike are then one, and shrinking one offers no candidate
 * that changes only what no pull reaches.
 */
function canonical<T>(plan: SourcePlan<T>): SourcePlan<T> {
  const { elements, throwAt } = plan;
  if (throwAt === undefined || (!plan.infinite && elements.length === throwAt)) return plan;
  const answered = Array.from({ length: Math.min(throwAt, plan.infinite ? throwAt : elements.length) }, (_, i) => elements[i % elements.length]!);
  return { ...plan, elements: answered, infinite: false, throwAt: answered.length };
}

/**
 * Smaller sources than `source`: without its throw, with `return` (one that does not throw), finite, then with fewer or
 * smaller elements (for one that throws, fewer is an earlier throw).
 */
export function* shrinkSource<S extends Source<unknown> | AsyncSource<unknown>>(source: S, elem: Shape<unknown>, shrink: (v: unknown, s: Shape<unknown>) => Iterable<unknown>): Generator<S> {
  const plan = canonical(source.plan);
  const made = (changes: Partial<AsyncSourcePlan<unknown>>) => (source instanceof AsyncSource ? new AsyncSource({ ...source.plan, ...plan, ...changes }) : new Source({ ...plan, ...changes })) as S;
  const throws = plan.throwAt !== undefined;
  // An async source's delays: none at all, then each shorter.
  if (source instanceof AsyncSource && source.plan.delays.some((d) => d > 0)) {
    const { delays } = source.plan;
    yield made({ delays: [] });
    for (let i = 0; i < delays.length; i++) if (delays[i]! > 0) yield made({ delays: delays.map((d, j) => (j === i ? d - 1 : d)) });
  }
  if (throws) yield made({ throwAt: undefined });
  if (!plan.hasReturn) yield made({ hasReturn: true });
  if (plan.returnThrows) yield made({ returnThrows: false });
  if (plan.infinite) yield made({ infinite: false });
  for (const elements of shrinkItems(plan.elements, (x) => shrink(x, elem))) {
    // A source that cycles for ever needs an element.
    if (plan.infinite && elements.length === 0) continue;
    yield made(throws ? { elements, throwAt: elements.length } : { elements });
  }
}
