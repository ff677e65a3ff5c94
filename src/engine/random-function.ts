/**
 * Random *non-strict* functions (paper, section 6.2 and appendix B): each call consumes its
 * arguments (`consume.ts`), and `Produce` builds its result lazily, drawing from the inputs again
 * before each piece; a generated function is shown by the calls it answered.
 * @module
 */
import { lazy, type Lazy } from '../lazy/lazy.ts';
import { evaluatedPart } from '../demand/convert.ts';
import type { Demand } from '../demand/demand.ts';
import { dynamic } from '../demand/dynamic.ts';
import { entangleAt } from '../demand/observe.ts';
import { DESCRIBE } from '../demand/primitives.ts';
import { prettyDemand } from '../demand/print.ts';
import type { Shape } from '../demand/shape-types.ts';
import { consume, draws, type Input } from './consume.ts';
import { fromArbitrary } from './fast-check-bridge.ts';
import { collection } from './random-collections.ts';
import { noGenerator, primitive } from './random-primitives.ts';
import type { Random, Seed } from './random.ts';
import { dataLayer, MOST_EAGER, NO_ENCLOSING, strictlyRecursive, type Enclosing } from './sizes.ts';

type S = Shape<unknown>;

/** Consumes a random part of the inputs, then produces a value whose randomness depends on what was consumed. */
export function recur(shape: Shape<unknown>, inputs: readonly Lazy<Input>[], random: Random, size: number, enclosing: Enclosing = NO_ENCLOSING): unknown {
  const entropy: number[] = [];
  const rest = draws(inputs, random, entropy);
  let seed = random.split();
  for (const v of entropy) seed = seed.variant(v);
  return produce(shape, rest, seed.stream(), size, enclosing);
}

/**
 * Produces a random value of a shape from the leaves of the inputs (paper, `Produce`): every
 * lazy field is produced only when forced, after drawing from the inputs again. Sizes go down
 * as {@link arbitrary}'s do (`enclosing`: the recursive types being produced around the value).
 */
export function produce(shape: Shape<unknown>, inputs: readonly Lazy<Input>[], r: Random, size: number, enclosing: Enclosing = NO_ENCLOSING): unknown {
  if (shape.arbitrary) return fromArbitrary(shape.arbitrary, r, size);
  if (shape.protocol) return shape.protocol.generate(r, size, (s, n) => produce(s, inputs, r, n, enclosing));
  switch (shape.kind) {
    case 'prim':
      return primitive(shape, r, size);
    case 'dynamic':
      return noGenerator(shape);
    case 'lazy': {
      const seed = r.split();
      const inner = shape.inner();
      return lazy(() => recur(inner, inputs, seed.stream(), size, enclosing));
    }
    case 'fn': {
      const seed = r.split();
      return makeFunction(shape, seed, size, inputs);
    }
    case 'data': {
      if (shape.collection) return collection(shape.collection, r, size, enclosing, (s, n) => recur(s, inputs, r.split().stream(), n, enclosing));
      // Strict fields are produced now, a call level per layer: capped as generate's are.
      const layer = dataLayer(shape, r, size, enclosing, strictlyRecursive(shape) ? MOST_EAGER : Infinity);
      return layer.alt.ctor.build(layer.alt.shapes.map((s, i) => recur(s, inputs, r.split().stream(), layer.sizes[i]!, layer.around[i]!)));
    }
  }
}

interface Call {
  /** What the function itself evaluated of each argument (read when the function is shown). */
  readonly args: readonly (() => Demand)[];
  readonly result: unknown;
}

/** @internal A random non-strict function of shape `shape`, fixed by `seed`, whose results draw from `outer` too (the inputs of a function that made it). */
export function makeFunction(shape: S & { kind: 'fn' }, seed: Seed, size: number, outer: readonly Lazy<Input>[]): (...args: unknown[]) => unknown {
  const calls: Call[] = [];
  // Each argument's name in a refusal, made once a position rather than at every call.
  const names: string[] = [];
  const f = (...args: unknown[]) => {
    // The function consumes entangled copies of its arguments, so that it is shown by what *it*
    // evaluated of them, not by what its caller evaluated of them elsewhere.
    // Every call's, not only those of the 64 kept to be shown: a copy refuses an argument that does
    // not fit its shape (the function checked called it so), named for the message, where a call
    // past the 64th took it as it was. Checks at the default maxSize seldom make one.
    const entangled = args.map((a, i) => entangleAt(a, shape.args[i] ?? dynamic, (names[i] ??= `argument ${i} of a generated function ${shape.name}`)));
    const inputs = [...outer, ...entangled.map(([a], i) => consume(a, shape.args[i] ?? dynamic))];
    const result = recur(shape.result, inputs, seed.stream(), size);
    if (calls.length < 64) calls.push({ args: entangled.map(([, demand]) => demand), result });
    return result;
  };
  Object.defineProperty(f, DESCRIBE, {
    value: {
      describe: () => describeCalls(calls, shape.result),
      reset: () => (calls.length = 0),
    },
  });
  return f;
}

/**
 * Shows a generated function by the calls it answered, each argument as far as the function
 * evaluated it and each result as far as it was evaluated: `λ{_ ↦ 3; 1 : _ ↦ 4}`; `λ{}` if never called.
 */
function describeCalls(calls: readonly Call[], result: S): string {
  const show = (d: Demand) => prettyDemand(d, { maxItems: 6, maxWidth: 60 });
  const shown = new Set<string>();
  for (const c of calls) {
    shown.add(`${c.args.map((demand) => show(demand())).join(', ')} ↦ ${show(evaluatedPart(c.result, result))}`);
    if (shown.size === 6) break;
  }
  return `λ{${[...shown].join('; ')}${calls.length > shown.size && shown.size === 6 ? '; …' : ''}}`;
}

/**
 * A random non-strict function of this shape, fixed by `seed` (QuickCheck's `promote`).
 *
 * @example
 * ```ts
 * const f = randomFunction(fn([number], number), Seed.of(2), 5);
 * f(1); // a number, the same for the same argument; it may or may not have evaluated its argument
 * ```
 *
 * @typeParam F The type of the functions `shape` describes, which the generated one has.
 */
export function randomFunction<F extends (...args: never[]) => unknown>(shape: Shape<F>, seed: Seed, size: number): F {
  const s = shape as S;
  if (s.kind !== 'fn') throw new TypeError(`randomFunction: expected a function shape, fn(args, result), got ${s.name}`);
  return makeFunction(s, seed, size, []) as unknown as F;
}

/** Forgets the calls a generated function has answered, so that a report shows only the last run's. */
export function resetCalls(f: unknown): void {
  (f as { [DESCRIBE]?: { reset(): void } } | undefined)?.[DESCRIBE]?.reset();
}
