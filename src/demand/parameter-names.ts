/**
 * The parameters of a function as its source writes them, for messages and proposals that name
 * arguments as the function does.
 * @module
 */

/**
 * The parameters of `fn` as its source writes them (`n`, `n = 1`, `{ a }`, `...xs`), from its
 * parenthesised list or the one parameter of an arrow written without parentheses (`xs=>…`, as
 * esbuild prints it); none (`[]`) for a native or bound function, undefined where the source has
 * no list at all. Not for classes: the first list of a class's source, which a compiler may have
 * rewritten (tsx's), is not its constructor's.
 */
export function parameterList(fn: (...args: any[]) => unknown): readonly string[] | undefined {
  const source = Function.prototype.toString.call(fn);
  const list = /^[^(=]*\(([^)]*)\)/.exec(source)?.[1] ?? /^(?:async\s+)?([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*)\s*=>/u.exec(source)?.[1];
  return list?.split(',').map((p) => p.trim()).filter((p) => p !== '');
}
