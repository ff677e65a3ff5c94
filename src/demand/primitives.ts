/**
 * The shapes of atoms: primitives (numbers, strings, booleans, bigints, unit) and functions.
 * @module
 */
import { mismatch } from './shape-errors.ts';
import { NO_FIELDS, NO_SHAPES, type Ctor, type PrimKind, type Shape } from './shape-types.ts';

const PRIM_CTORS: Partial<Record<string, Ctor>> = {};

/** The constructor of the primitives whose `typeof` is `type` (`undefined` for unit). */
export function primitiveCtor(type: string): Ctor | undefined {
  return PRIM_CTORS[type];
}

/** The constructor named `name` of the primitives whose `typeof` is `type`: an atom that builds as its value. */
function primCtor(name: string, type: string): Ctor {
  return (PRIM_CTORS[type] = { name, keys: [], style: 'prim', build: (_f, value) => value });
}

function prim<T>(kind: PrimKind, test: (v: unknown) => boolean): Shape<T> {
  const ctor = primCtor(kind, kind === 'unit' ? 'undefined' : kind);
  return {
    kind: 'prim',
    prim: kind,
    name: kind,
    project(value, path) {
      if (!test(value)) mismatch(path, kind, value);
      return { ctor, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
  };
}

/** Numbers (generated as small integers, like QuickCheck's `Int`). */
export const number: Shape<number> = prim('number', (v) => typeof v === 'number');
/** Strings (atomic; use `List<string>` from `fromString` for a string whose characters are lazy). */
export const string: Shape<string> = prim('string', (v) => typeof v === 'string');
/** Booleans. */
export const boolean: Shape<boolean> = prim('boolean', (v) => typeof v === 'boolean');
/** BigInts. */
export const bigint: Shape<bigint> = prim('bigint', (v) => typeof v === 'bigint');
/** The unit type, `undefined`: one value, no fields. */
export const unit: Shape<undefined> = prim('unit', (v) => v === undefined);

/**
 * The constructor of symbols: atoms to the dynamic shape (no declared shape has them), equal when
 * they are the same symbol, printed `Symbol(description)`.
 */
export const SYMBOL_CTOR = primCtor('symbol', 'symbol');

/** A function carrying this property (`{ describe(): string }`) prints as what it describes, not `<function>`. */
export const DESCRIBE = Symbol('strictcheck.describe');

/** The constructor of every function: opaque, either demanded (called) or not. */
export const FN_CTOR: Ctor = { name: '<function>', keys: [], style: 'fn', build: (_f, value) => value };

/**
 * Functions from `args` to `result`: opaque to demands (a function is demanded once it is
 * called), but generated as random non-strict functions by the checker.
 *
 * @example
 * ```ts
 * // map's arguments: a function from numbers to numbers, and a list
 * const mapArgs = [fn([number], number), list(number)] as const;
 * ```
 */
export function fn<A extends readonly unknown[], R>(
  args: { readonly [K in keyof A]: Shape<A[K]> },
  result: Shape<R>,
): Shape<(...args: A) => R> {
  return {
    kind: 'fn',
    args: args as readonly Shape<unknown>[],
    result: result as Shape<unknown>,
    name: `(${(args as readonly Shape<unknown>[]).map((a) => a.name).join(', ')}) => ${result.name}`,
    project(value, path) {
      if (typeof value !== 'function') mismatch(path, 'a function', value);
      return { ctor: FN_CTOR, fields: NO_FIELDS, shapes: NO_SHAPES, value };
    },
  };
}
