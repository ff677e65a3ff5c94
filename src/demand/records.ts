/**
 * Records: plain objects with named fields, and the constructors shared by plain objects alike.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { dataCtor, declaration } from './declared-data.ts';
import { keyText } from './key-text.ts';
import { mismatch, missingField } from './shape-errors.ts';
import type { Ctor, Shape } from './shape-types.ts';

/** The constructor of records with these keys, whose values have prototype `proto`: `Object.prototype`, or none (`null`). */
export function recordCtor(keys: readonly string[], proto: object | null = Object.prototype): Ctor {
  return plainCtor(undefined, keys, proto);
}

// Records', then tagged objects', each with Object.prototype, then with none.
const plainCtors = [new Map<string, Ctor>(), new Map<string, Ctor>(), new Map<string, Ctor>(), new Map<string, Ctor>()];

/**
 * The constructor, one shared, of plain objects with these keys and prototype `proto`
 * (`Object.prototype`, or none: `null`): records, or with a `tag`, the tagged objects it names.
 */
export function plainCtor(tag: string | undefined, keys: readonly string[], proto: object | null): Ctor {
  const ctors = plainCtors[(tag === undefined ? 0 : 2) + (proto === null ? 1 : 0)]!;
  const id = tag === undefined ? keys.join('\u0000') : tag + '\u0000' + keys.join('\u0000');
  let ctor = ctors.get(id);
  if (!ctor) {
    ctor = tag === undefined ? dataCtor(`{${keys.map(keyText).join(', ')}}`, keys, 'record', proto) : dataCtor(tag, keys, 'data', proto);
    ctors.set(id, ctor);
  }
  return ctor;
}

/**
 * Records (plain objects with these keys); fields are strict unless their shape is {@link lazyOf}.
 *
 * @example
 * ```ts
 * const point = record({ x: number, y: lazyOf(number) });
 * prettyDemand(toDemand({ x: 1, y: thunk }, point)); // '{ x: 1, y: _ }'
 * ```
 */
export function record<R extends Record<string, unknown>>(fields: { readonly [K in keyof R]: Shape<R[K]> }): Shape<R> {
  const keys = Object.keys(declaration(fields, 'record'));
  const shapes = Object.values(fields) as Shape<unknown>[];
  const ctor = recordCtor(keys);
  const bare = recordCtor(keys, null);
  const alternatives = [{ ctor, shapes }];
  const name = `{ ${keys.map((k, i) => `${k}: ${shapes[i]!.name}`).join('; ')} }`;
  return {
    kind: 'data',
    name,
    alternatives: () => alternatives,
    project(value, path) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Lazy) {
        mismatch(path, 'a record', value);
      }
      const v = value as Record<string, unknown>;
      // An inherited `__proto__` is the prototype, never a field.
      for (const k of keys) if (!(k in v) || (k === '__proto__' && !Object.hasOwn(v, k))) missingField(path, k, name, v);
      return { ctor: Object.getPrototypeOf(v) === null ? bare : ctor, fields: keys.map((k) => v[k]), shapes };
    },
  };
}
