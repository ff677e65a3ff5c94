/**
 * Opaque shapes: objects read as atoms (a `Date`, a class instance).
 * @module
 */
import { inspect } from 'node:util';
import type { Arbitrary } from 'fast-check';
import { Lazy } from '../lazy/lazy.ts';
import { describeSafely } from './describe.ts';
import { mismatch } from './shape-errors.ts';
import { checkDeclared, FUNCTION_OPTION, showOption } from './options.ts';
import { NO_FIELDS, NO_SHAPES, type Ctor, type Shape } from './shape-types.ts';

/** What {@link opaque} needs to know of its values. */
export interface OpaqueOptions<T> {
  /** Whether an object is one of the type's values (default: any object or function but a `Lazy`): one that is not is a mismatch, named by its path. */
  readonly is?: ((value: object) => boolean) | undefined;
  /** When two values are the same, for comparing demands (default `Object.is`: the same object). */
  readonly equals?: ((a: T, b: T) => boolean) | undefined;
  /** How a value prints in demands and reports (default: `util.inspect` on one line). */
  readonly show?: ((value: T) => string) | undefined;
  /** A fast-check arbitrary that generates and shrinks the values (without one, a check cannot generate them). */
  readonly arbitrary?: Arbitrary<T> | undefined;
}

/** The options of {@link opaque}: checked, as a misspelt one (`equal`) was ignored without a word. */
const OPAQUE_OPTIONS = {
  is: FUNCTION_OPTION,
  equals: FUNCTION_OPTION,
  show: FUNCTION_OPTION,
  arbitrary: {
    check(value: unknown, name: string) {
      if (typeof (value as { generate?: unknown } | null)?.generate !== 'function') throw new TypeError(`${name} must be a fast-check arbitrary (fc.date(), …), got ${showOption(value)}`);
    },
  },
};

/**
 * Objects read as atoms: a `Date`, a class instance, anything that is not data strictcheck can
 * take apart. A value of an opaque shape is strict, as a number is: it is evaluated whole when
 * the position holding it is, and a function gets it as it is, not a copy (put it under
 * {@link lazyOf} for a position that can be left unevaluated). What the function reads inside it
 * is not observed, so it must hold no `Lazy` whose forcing matters. `name` names the type in
 * messages. To generate values for a check, give `arbitrary`; for the exhaustive mode, a series
 * (`withSeries`).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * const date = opaque<Date>('Date', {
 *   is: (v) => v instanceof Date,
 *   equals: (a, b) => a.getTime() === b.getTime(),
 *   show: (d) => d.toISOString().slice(0, 10),
 *   arbitrary: fc.date({ noInvalidDate: true }),
 * });
 * prettyDemand(toDemand(fromArray([new Date(0)]), list(date))); // '1970-01-01 : []'
 * ```
 */
export function opaque<T extends object>(name: string, options: OpaqueOptions<T> = {}): Shape<T> {
  checkDeclared(options, OPAQUE_OPTIONS, 'opaque');
  const { is, equals, show = (v: T) => inspect(v, { breakLength: Infinity, depth: 2 }), arbitrary } = options;
  // The callbacks are user code: a throw names the shape (and printing, which must not fail, shows it instead).
  const blame = (what: string, err: unknown) => new TypeError(`the \`${what}\` of the opaque shape ${name} threw: ${describeSafely(err)}`, { cause: err });
  const shown = (v: unknown) => {
    try {
      return show(v as T);
    } catch (err) {
      return `<${blame('show', err).message}>`;
    }
  };
  const guarded =
    <A extends unknown[]>(what: string, f: (...args: A) => boolean) =>
    (...args: A): boolean => {
      try {
        return f(...args);
      } catch (err) {
        throw blame(what, err);
      }
    };
  const fits = is && guarded('is', is);
  const ctor: Ctor = { name, keys: [], style: 'prim', build: (_f, value) => value, show: shown, ...(equals && { equals: guarded('equals', equals as (a: unknown, b: unknown) => boolean) }) };
  return {
    kind: 'prim',
    prim: 'opaque',
    name,
    project(value, path) {
      const object = (typeof value === 'object' && value !== null) || typeof value === 'function';
      if (!object || value instanceof Lazy || (fits && !fits(value))) mismatch(path, object && !(value instanceof Lazy) ? name : `${name} (an object)`, value);
      return { ctor, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
    ...(arbitrary && { arbitrary }),
  };
}

/** @internal Whether `s` was made by {@link opaque}. */
export function isOpaque(s: Shape<unknown>): boolean {
  return s.kind === 'prim' && s.prim === 'opaque';
}
