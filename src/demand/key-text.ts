/**
 * Record keys as JavaScript writes them, for printed demands and constructor names.
 * @module
 */

/** @internal A JavaScript identifier: it prints bare as a record key or a constructor name. */
export const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * @internal A record key as JavaScript writes it, in printed demands and in a record's
 * constructor name (demands compare constructors by name): `{ a: 1, "c: 2, d": 3 }` has two
 * fields, not three, and a symbol key is `[Symbol(s)]`, not the string `"[Symbol(s)]"`.
 */
export function keyText(key: PropertyKey): string {
  if (typeof key === 'symbol') return `[${String(key)}]`;
  const k = String(key);
  // `__proto__: …` and `"__proto__": …` in an object literal set its prototype: a field of that name is written computed.
  if (k === '__proto__') return '["__proto__"]';
  return IDENTIFIER.test(k) ? k : JSON.stringify(k);
}
