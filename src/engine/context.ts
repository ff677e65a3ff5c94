/**
 * Random evaluation contexts: a random, never empty demand on a function's result, built by
 * consuming the result with `draws` (the random non-strict consumers of appendix B) for a random
 * number of rounds; one context in four forces everything.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import type { Demand } from '../demand/demand.ts';
import { normalize, type Context } from '../demand/observe.ts';
import { dynamic } from '../demand/shape.ts';
import { consume, draws } from './generate.ts';
import type { Seed } from './random.ts';

/**
 * A random context of the given size. It always forces the outermost layer, so the demand it
 * exerts is never empty and finding it takes no retries (the original retries without bound).
 */
export function randomContext(seed: Seed, size: number): Context {
  return (value) => {
    let r = seed.stream();
    if (r.int(0, 3) === 0) return normalize(value);
    let inputs = consume(value).force().fields.slice();
    for (let rounds = r.int(0, size); rounds > 0 && inputs.length > 0; rounds--) {
      const [, rest, next] = draws(inputs, r);
      inputs = rest;
      r = next;
    }
  };
}

/**
 * The context that forces a value as far as `demand` says, where the value has the demand's
 * constructors, and no further where it does not: shrinking keeps a result demand while the
 * inputs change under it. The outermost layer is always forced.
 */
export function fitContext(demand: Demand): Context {
  return (value) => {
    const stack: [Demand, unknown][] = [[demand, value]];
    while (stack.length > 0) {
      const [d, v0] = stack.pop()!;
      if (!d.forced) continue;
      let v = v0;
      while (v instanceof Lazy) v = v.force();
      const layer = dynamic.project(v, null);
      if (layer.ctor.name !== d.ctor.name || layer.fields.length !== d.fields.length) continue;
      for (let i = d.fields.length - 1; i >= 0; i--) stack.push([d.fields[i]!, layer.fields[i]]);
    }
  };
}
