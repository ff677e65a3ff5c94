/**
 * The text of any value for a message, above all of a thrown one: it never throws and is bounded.
 * A report that names what a function threw must not fail in its turn (an object without a
 * prototype has no `toString`; a getter of `message` may throw), nor grow with it (a 10 MB string).
 * @module
 */
import { inspect, types } from 'node:util';

/** The longest description, in characters. */
export const MAX_DESCRIPTION = 1000;

/** Bounds of `inspect`: one line, a few levels and items, no long string inside. */
const INSPECT = { depth: 2, breakLength: Infinity, maxArrayLength: 20, maxStringLength: MAX_DESCRIPTION } as const;

/**
 * @internal `value` as a message names it, cut to `max` characters: a string as it is, another
 * primitive as `String` writes it, an error as `name: message` (each read safely), any other
 * object as `util.inspect` shows it (without its own inspector if that throws). Never throws.
 */
export function describeSafely(value: unknown, max = MAX_DESCRIPTION): string {
  return cut(describe(value), max);
}

function describe(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return String(v);
  // A Proxy first: `instanceof` would run its traps, which may throw (a revoked one's do); inspect shows its target.
  if (isError(v)) {
    const message = readText(v, 'message');
    return `${readText(v, 'name') ?? 'Error'}${message === undefined ? ' (its message could not be read)' : `: ${message}`}`;
  }
  try {
    return inspect(v, INSPECT);
  } catch {
    // Its own inspector threw.
    try {
      return inspect(v, { ...INSPECT, customInspect: false });
    } catch {
      return 'a value that cannot be printed';
    }
  }
}

/** Whether `v` is an error: a Proxy is not asked (`instanceof` would run its traps, which may throw, as a revoked one's do). */
function isError(v: object): boolean {
  return !types.isProxy(v) && (types.isNativeError(v) || v instanceof Error);
}

/**
 * @internal The name, message and stack of a thrown value, as a worker sends them to the main
 * thread: read safely, each cut to `max` characters (the stack to several times that), and only
 * text, which can always be cloned. A value that is not an error is an `Error` whose message
 * describes it.
 */
export function errorParts(thrown: unknown, max = MAX_DESCRIPTION): { name: string; message: string; stack?: string } {
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function') || !isError(thrown)) return { name: 'Error', message: describeSafely(thrown, max) };
  const stack = readText(thrown, 'stack');
  return {
    name: cut(readText(thrown, 'name') ?? 'Error', max),
    message: cut(readText(thrown, 'message') ?? '(its message could not be read)', max),
    ...(stack === undefined ? {} : { stack: cut(stack, 10 * max) }),
  };
}

/** Property `key` of `o` as text, if reading it does not throw and it is a primitive other than `undefined`. */
function readText(o: object, key: string): string | undefined {
  try {
    const v = (o as Record<string, unknown>)[key];
    return v === null || (typeof v !== 'object' && typeof v !== 'function' && v !== undefined) ? String(v) : undefined;
  } catch {
    return undefined;
  }
}

/** `text` cut to `max` characters (between the halves of a surrogate pair, one fewer), saying how long it was. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (cut: ${text.length} characters in all)`;
}
