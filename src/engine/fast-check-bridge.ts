/**
 * The bridge to fast-check: generating with an arbitrary from our random streams, and keeping the
 * contexts of the values it made so that they can be shrunk; `withArbitrary` gives a shape one.
 * @module
 */
import fc from 'fast-check';
import { dynamic } from '../demand/dynamic.ts';
import type { Shape } from '../demand/shape-types.ts';
import type { Random } from './random.ts';

/**
 * @internal Generates with a fast-check arbitrary, from a stream split off ours: fast-check's `Random`
 * draws from a clone of the generator it is given, so handing it ours would leave ours where it
 * was, and every value drawn next from it would be the same. The bias towards small values and
 * edge cases (0, the bounds) is fast-check's for its runs, here by size (which grows with the
 * trials): strong at first, weaker later. Without it, `fc.integer()` is uniform over 2^32 values.
 */
export function fromArbitrary<T>(arb: fc.Arbitrary<T>, r: Random, size: number): T {
  return remember(arb, arb.generate(new fc.Random(r.split().stream().rng), 2 + Math.floor(Math.log10(1 + Math.max(0, size)))));
}

/**
 * The fast-check contexts of the values an arbitrary made, for shrinking them: without its
 * context, a value of a mapped arbitrary (`fc.array(…).map(fromArray)`) cannot be shrunk. An
 * object's context is kept as long as the object lives (weakly: a run's inputs are not kept
 * alive); a primitive cannot be held weakly, so the contexts of the newest {@link PRIMITIVES}
 * primitives are kept, by value. A value whose context is gone is shrunk without, if it can be.
 */
interface Made {
  readonly objects: WeakMap<object, unknown>;
  readonly primitives: Map<unknown, unknown>;
}
const contexts = new WeakMap<fc.Arbitrary<unknown>, Made>();
const PRIMITIVES = 1024;
/** The key of -0 among the primitives: a Map takes -0 for 0. */
const NEGATIVE_ZERO = Symbol('-0');
const isObject = (v: unknown): v is object => (typeof v === 'object' && v !== null) || typeof v === 'function';
const primitiveKey = (v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v);

/** @internal Keeps the context of a value an arbitrary made (generated, or a shrink), and returns the value. */
export function remember<T>(arb: fc.Arbitrary<T>, made: fc.Value<T>): T {
  let known = contexts.get(arb);
  if (!known) contexts.set(arb, (known = { objects: new WeakMap(), primitives: new Map() }));
  const v = made.value_;
  if (isObject(v)) known.objects.set(v, made.context);
  else {
    const key = primitiveKey(v);
    known.primitives.delete(key);
    known.primitives.set(key, made.context);
    if (known.primitives.size > PRIMITIVES) known.primitives.delete(known.primitives.keys().next().value);
  }
  return v;
}

/** @internal The context of a value `arb` made, if it is kept ({@link remember}). */
export function contextOf(arb: fc.Arbitrary<unknown>, value: unknown): { readonly context: unknown } | undefined {
  const known = contexts.get(arb);
  if (!known) return undefined;
  if (isObject(value)) return known.objects.has(value) ? { context: known.objects.get(value) } : undefined;
  const key = primitiveKey(value);
  return known.primitives.has(key) ? { context: known.primitives.get(key) } : undefined;
}

/**
 * Uses a fast-check arbitrary to generate and shrink values of a shape (default: read their structure at run time).
 *
 * @example
 * ```ts
 * // lists of at most four digits, generated and shrunk by fast-check
 * const digits = withArbitrary(fc.array(fc.nat(9), { maxLength: 4 }).map(fromArray), list(number));
 * const sumSpec = spec([digits], number, (predict, _d, xs) => predict(List.map(() => 0, xs)));
 * ```
 */
export function withArbitrary<T>(arb: fc.Arbitrary<T>, shape: Shape<T> = dynamic as Shape<T>): Shape<T> {
  return { ...shape, arbitrary: arb, name: shape.name };
}
