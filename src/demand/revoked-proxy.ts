/**
 * Finding a revoked Proxy in the inputs of an observation. Every operation on one throws a
 * TypeError (`instanceof` too, which every walk asks first), which names no path and, thrown while
 * the function runs, would read as the function's error. Sought only after such an error, so that
 * observing pays nothing for it.
 * @module
 */
import { types } from 'node:util';
import { Lazy, peek } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { child, showPath, type Path } from './path.ts';
import { ShapeMismatchError } from './shape-errors.ts';

/** Most values looked at: the search follows what was evaluated, which may be large. */
const MAX_VALUES = 100_000;

/** @internal Whether `v` is a revoked Proxy (`types.isProxy` runs no trap; a revoked one throws on any other operation). */
export function isRevokedProxy(v: unknown): boolean {
  if (!types.isProxy(v)) return false;
  try {
    Reflect.getPrototypeOf(v as object);
    return false;
  } catch {
    return true;
  }
}

/**
 * @internal The mismatch of the first revoked Proxy in the evaluated part of `inputs` (named
 * `names`), if `thrown` may be the error of one; or `undefined`. Goes into lists, arrays, plain
 * objects, sets and maps, and never into a live Proxy, whose traps are code of its own.
 */
export function revokedInput(thrown: unknown, inputs: readonly unknown[], names: readonly string[]): ShapeMismatchError | undefined {
  if (types.isProxy(thrown) || !(thrown instanceof TypeError) || !/revoked/.test(thrown.message)) return undefined;
  return findRevoked(inputs, names);
}

/** @internal The mismatch of the first revoked Proxy in the evaluated part of `inputs` (named `names`), or `undefined`: see {@link revokedInput}. */
export function findRevoked(inputs: readonly unknown[], names: readonly string[]): ShapeMismatchError | undefined {
  const seen = new Set<unknown>();
  const stack: [unknown, Path][] = inputs.map((v, i) => [v, names[i]!] as [unknown, Path]).reverse();
  while (stack.length > 0 && seen.size < MAX_VALUES) {
    const [v, path] = stack.pop()!;
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) continue;
    seen.add(v);
    if (types.isProxy(v)) {
      if (isRevokedProxy(v)) return new ShapeMismatchError(showPath(path), 'a value it can read (give the value itself, or a Proxy not revoked)', v, 'a revoked Proxy, on which every operation throws');
      continue;
    }
    const fields: [unknown, PropertyKey][] =
      v instanceof Lazy ? (v.isEvaluated ? [[peek(v), '']] : [])
      : v instanceof Cons ? [[v.head, 'head'], [v.tail, 'tail']]
      : types.isSet(v) ? [...(v as Set<unknown>)].map((x, i) => [x, i])
      : types.isMap(v) ? [...(v as Map<unknown, unknown>)].flatMap(([k, x], i) => [[k, `keys.${i}`], [x, `values.${i}`]] as [unknown, PropertyKey][])
      : typeof v === 'object' ? Reflect.ownKeys(v).map((k) => [Object.getOwnPropertyDescriptor(v, k)?.value, k])
      : [];
    for (let i = fields.length - 1; i >= 0; i--) {
      const [x, key] = fields[i]!;
      stack.push([x, key === '' ? path : child(path, key)]);
    }
  }
  return undefined;
}

/**
 * @internal Runs `read`, a walk of `value` (named `path`) outside an observation, refusing a
 * revoked Proxy in it as an observation does: its TypeError, which names no path, becomes the
 * mismatch that names where the Proxy is.
 */
export function readingRevoked<T>(value: unknown, path: Path, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw revokedOr(err, value, path);
  }
}

/** @internal What a walk of `value` (named `path`) that threw `err` throws: the mismatch naming a revoked Proxy in `value` if `err` is its error, else `err` (see {@link readingRevoked}). */
export function revokedOr(err: unknown, value: unknown, path: Path): unknown {
  return revokedInput(err, [value], [showPath(path)]) ?? err;
}
