/**
 * The error a value that does not fit its shape raises, and how it names what was found.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { safeInstanceof } from '../lazy/thrown.ts';
import { CTOR } from './data-mark.ts';
import { keyText } from './key-text.ts';
import { child, showPath, type Path } from './path.ts';
import { isBuiltinPrototype, ownValue } from './realm.ts';
import type { Ctor, Shape } from './shape-types.ts';

/** Thrown when a value does not match its declared shape; names the path to the mismatch. */
export class ShapeMismatchError extends Error {
  /** Always `'ShapeMismatchError'`: the name logs show for a value that does not fit its shape. */
  override name = 'ShapeMismatchError';
  constructor(
    /** Where in the value, e.g. `args[0].tail.head`. */
    readonly path: string,
    /** What the shape expected there, e.g. `number`. */
    readonly expected: string,
    /** What was there instead. */
    readonly actual: unknown,
    /** How the message names what was there, where its description cannot tell (a getter is not a value). */
    found = describeValue(actual),
  ) {
    super(`value does not match its shape at ${path}: expected ${expected}, got ${found}`);
  }
}

/** A short description of a value's run-time form, for messages (read without running a getter). */
export function describeValue(v: unknown): string {
  if (v instanceof Lazy) return 'a Lazy';
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const proto = Object.getPrototypeOf(v) as object | null;
    return `an array of length ${v.length}${isBuiltinPrototype(proto, 'Array') ? '' : `, an instance of ${className(proto)}`}`;
  }
  if (typeof v === 'object') {
    const generator = generatorKind(v);
    if (generator !== undefined) return generator;
    const proto = Object.getPrototypeOf(v) as object | null;
    const declared = proto === null ? undefined : (ownValue(proto, CTOR) as { ctor: Ctor; shape: Shape<unknown> } | undefined);
    // A declared data value's prototype is no class's: it is named as its declaration names it.
    if (declared !== undefined) return `${declared.shape.name}'s ${declared.ctor.name} (a value of data '${declared.shape.name}')`;
    if (proto !== null && !isBuiltinPrototype(proto, 'Object')) return `an instance of ${className(proto)}`;
    const tag = ownValue(v, 'tag');
    return typeof tag === 'string' ? `an object with tag '${tag}'` : 'an object';
  }
  if (typeof v === 'string') return `the string ${JSON.stringify(shortened(v))}`;
  return v === undefined ? 'undefined' : `${typeof v} ${String(v)}`;
}

/** How a message names a generator object, whose class has no name: by the kind of function that made it. */
function generatorKind(v: object): string | undefined {
  let tag: string;
  try {
    tag = Object.prototype.toString.call(v);
  } catch {
    return undefined; // a revoked Proxy: described as an object
  }
  return tag === '[object Generator]' ? "a generator object (a function*'s)" : tag === '[object AsyncGenerator]' ? "an async generator object (an async function*'s)" : undefined;
}

/** `s`, cut after 20 characters, for messages. */
export function shortened(s: string): string {
  return s.length > 20 ? s.slice(0, 20) + '…' : s;
}

/** The name of the class whose prototype is `proto`, for messages. */
function className(proto: object | null): string {
  const c = proto === null ? undefined : ownValue(proto, 'constructor');
  const name = typeof c === 'function' ? ownValue(c, 'name') : undefined;
  return typeof name === 'string' && name !== '' ? name : 'a class without a name';
}

export function mismatch(path: Path, expected: string, actual: unknown): never {
  throw new ShapeMismatchError(showPath(path), expected, actual);
}

/** Refuses object `o` at `path`, which lacks field `key` of `what` (a record's or a constructor's name): says which fields it has. */
export function missingField(path: Path, key: PropertyKey, what: string, o: object): never {
  const field = typeof key === 'symbol' ? keyText(key) : `'${key}'`;
  const has = Object.keys(o).map(keyText).join(', ');
  throw new ShapeMismatchError(showPath(child(path, key)), `field ${field} of ${what}`, undefined, `nothing: the object has no field ${field} (its fields: ${has === '' ? 'none' : has})`);
}

safeInstanceof(ShapeMismatchError);
