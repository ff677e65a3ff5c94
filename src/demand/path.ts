/**
 * Paths from an argument to a position inside it, for error messages.
 * @module
 */

/** A path from an argument to a position inside it, for error messages (built only when needed). */
export type Path =
  | {
      /** The path to the value holding this position. */
      readonly parent: Path;
      /** The key of the position in that value, e.g. `tail` or `0`. */
      readonly key: PropertyKey;
      /** How many times `key` repeats (default 1): one object for the path to the k-th cell of a list. */
      readonly times?: number;
    }
  | null
  | string;

/**
 * Renders a path like `xs.tail.tail.head`. A key repeated more than 8 times in a
 * row is written once with its count (`xs.tail×100000.head`), so that a message about the
 * 100,000th cell of a list stays short.
 *
 * @example
 * ```ts
 * showPath({ parent: { parent: 'xs', key: 'tail', times: 2 }, key: 'head' }); // 'xs.tail.tail.head'
 * showPath({ parent: { parent: 'xs', key: 'tail', times: 9 }, key: 'head' }); // 'xs.tail×9.head'
 * ```
 */
export function showPath(path: Path): string {
  // Runs of equal keys, innermost first: [key, count, key, count, …].
  const runs: (string | number)[] = [];
  let p = path;
  for (; p !== null && typeof p !== 'string'; p = p.parent) {
    const key = String(p.key);
    if (runs.length > 0 && runs[runs.length - 2] === key) (runs[runs.length - 1] as number) += p.times ?? 1;
    else runs.push(key, p.times ?? 1);
  }
  const parts = [p ?? 'value'];
  for (let i = runs.length - 2; i >= 0; i -= 2) {
    const [key, count] = [runs[i] as string, runs[i + 1] as number];
    if (count > MAX_REPEATS) parts.push(`${key}×${count}`);
    else for (let k = 0; k < count; k++) parts.push(key);
  }
  return parts.join('.');
}

/** The longest run of one key that {@link showPath} writes out in full. */
const MAX_REPEATS = 8;

/** Appends a key to a path, `times` times (one object for the path to the k-th cell of a list). */
export function child(path: Path, key: PropertyKey, times = 1): Path {
  return times === 0 ? path : times === 1 ? { parent: path, key } : { parent: path, key, times };
}
