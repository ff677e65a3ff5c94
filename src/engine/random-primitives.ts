/**
 * Random primitives of the primitive shapes, drawn alike by eager generation and by production,
 * and the error for a shape without a generator.
 * @module
 */
import type { Shape } from '../demand/shape-types.ts';
import type { Random } from './random.ts';

type S = Shape<unknown>;

/** @internal The error for a shape without a generator: dynamic, or opaque without an arbitrary. */
export function noGenerator(shape: S): never {
  if (shape.kind === 'prim') throw new TypeError(`cannot generate values of the opaque shape ${shape.name}: give it a fast-check arbitrary (the option \`arbitrary\` of opaque(), or withArbitrary())`);
  throw new TypeError(`cannot generate values of shape ${shape.name}: give a shape, or a fast-check arbitrary with withArbitrary()`);
}

/** @internal A random primitive of shape `shape` at size `size`. */
export function primitive(shape: S & { kind: 'prim' }, r: Random, size: number): unknown {
  switch (shape.prim) {
    case 'number':
      return r.int(-size, size);
    case 'boolean':
      return r.bool();
    case 'bigint':
      return BigInt(r.int(-size, size));
    case 'unit':
      return undefined;
    case 'string': {
      const n = r.int(0, Math.min(size, 6));
      let s = '';
      for (let i = 0; i < n; i++) s += String.fromCharCode(97 + r.int(0, 4));
      return s;
    }
    case 'opaque':
      return noGenerator(shape);
  }
}
