/**
 * Random evaluation contexts: a random, never empty demand on a function's result, built by
 * consuming the result with `draws` (the random non-strict consumers of appendix B) for a random
 * number of rounds; one context in four forces everything (up to a bound, so that infinite results
 * stay finite contexts).
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import type { Demand } from '../demand/demand.ts';
import { guided, recordingContext, type Context } from '../demand/observe.ts';
import { forceAt, pullAllowance, RecordSite } from '../demand/record-site.ts';
import type { RandomConsumer } from '../demand/shape-types.ts';
import { drawsInPlace } from './consume.ts';
import type { Seed } from './random.ts';

/**
 * A random context of the given size. It always forces the outermost layer, so the demand it
 * exerts is never empty and finding it takes no retries (the original retries without bound).
 *
 * @example
 * ```ts
 * const context = randomContext(Seed.of(3), 5);
 * const o = observe(context, (xs: List.List<number>) => List.map((x: number) => x + 1, xs), fromArray([1, 2, 3]));
 * prettyDemand(o.result); // some demand on the result, never _
 * ```
 */
export function randomContext(seed: Seed, size: number): Context {
  // Observed, it records what it forces as it goes (see `forceAt`): no copy of the result.
  return recordingContext((result, shape, path, into, at) => {
    const value = result.take();
    const r = seed.stream();
    // The iterables it meets, the result or inside it, consumed as random consumers do, within one allowance of pulls: one object, its allowance in it.
    const consumer: RandomConsumer = { r, size, pulls: pullAllowance(size) };
    if (shape.protocol !== undefined) return shape.protocol.consumeRandomly(value, path, consumer, into, at);
    const site = RecordSite.root(value, shape, path, into, at);
    if (r.int(0, 3) === 0) return normalizeUpTo({ pulls: pullAllowance(size) }, site, consumer);
    // The fields of the result's own consumed layer, which nothing else holds: consumed in place.
    const pending: RecordSite[] = [];
    forceAt(site, pending, consumer);
    for (let rounds = r.int(0, size); rounds > 0 && pending.length > 0; rounds--) drawsInPlace(pending, r, consumer);
  });
}

/**
 * Forces the value at `site` completely, like `normalize`, but its outer layer and at most
 * `left.pulls` lazy positions more (breadth first), which it takes from `left`: the same as
 * `normalize` on any result of a reasonable size, and a finite context on an infinite result
 * (`repeat x`), where `normalize` would run until the force budget ran out. Records what it
 * forces at the sites; the iterables it meets are consumed by `consumer`.
 */
export function normalizeUpTo(left: { pulls: number }, site: RecordSite, consumer: RandomConsumer): void {
  const queue: (RecordSite | undefined)[] = [site];
  for (let k = 0; k < queue.length; k++) {
    const at = queue[k]!;
    queue[k] = undefined;
    // Past the budget nothing more is forced but the outer layer; the strict fields left were recorded with their layers.
    if (at.value instanceof Lazy && left.pulls-- <= 0 && k > 0) return;
    forceAt(at, queue as RecordSite[], consumer); // its fields join the queue, emptied only behind k
  }
}

/**
 * The context that forces a value as far as `demand` says, where the value has the demand's
 * constructors, and no further where it does not: shrinking keeps a result demand while the
 * inputs change under it. The outermost layer is always forced.
 */
export function fitContext(demand: Demand): Context {
  return recordingContext(guided(demand, true));
}
