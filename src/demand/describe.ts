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
  if (!types.isProxy(v) && (types.isNativeError(v) || v instanceof Error)) {
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

/** Property `key` of `o` as text, if reading it does not throw and it is a primitive. */
function readText(o: object, key: string): string | undefined {
  try {
    const v = (o as Record<string, unknown>)[key];
    return v === null || (typeof v !== 'object' && typeof v !== 'function') ? String(v) : undefined;
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
